// The rules of docs/messages.md that a machine can check, for the corpus tests of the pane's
// and the functions' messages. Each rule returns what is wrong with a message, or null.

export interface VoiceRule {
  name: string;
  check(message: string): string | null;
}

/** A quoted phrase in single or curly quotes: PCD quotes with straight double quotes only. */
const OTHER_QUOTES = /[“”‘’]|(^|[\s(])'[^'\s][^']*'(?=$|[\s.,:;)])/;
/** A cause told twice: the message goes on to repeat the service's or another layer's words. */
const DOUBLED_CAUSE = /\((the )?service said\b|\bserver said\b|\bcause:.*\bcause:/i;

export const VOICE_RULES: readonly VoiceRule[] = [
  {
    name: "starts upper-case",
    check: (message) => (/^[A-Z0-9"#=]/.test(message) ? null : `starts with "${message.charAt(0)}"`),
  },
  {
    name: "ends with a full stop",
    check: (message) => (/[.?…]$/.test(message) ? null : `ends with "${message.slice(-1)}"`),
  },
  {
    name: "one quoting style (straight double quotes)",
    check: (message) => {
      const found = OTHER_QUOTES.exec(message);
      return found ? `quotes with ${found[0].trim()}` : null;
    },
  },
  {
    name: "the cause said once",
    check: (message) => (DOUBLED_CAUSE.test(message) ? "repeats the cause" : null),
  },
  {
    name: "no raw placeholders",
    check: (message) => (/undefined|null|NaN|\[object /.test(message) ? "prints a raw value" : null),
  },
];

/** Every rule a message breaks, as "rule: detail". */
export function voiceProblems(message: string): string[] {
  return VOICE_RULES.flatMap((rule) => {
    const problem = rule.check(message);
    return problem === null ? [] : [`${rule.name}: ${problem}`];
  });
}
