// A password typed or piped to a command's standard input. It is never written anywhere: at a
// terminal the characters are read with echo off, and from a pipe only the first line is read.
import type { Readable, Writable } from "node:stream";

interface Terminal {
  isTTY?: boolean;
  setRawMode?: (raw: boolean) => unknown;
}

const ENTER = /[\r\n]/;
const INTERRUPT = "\u0003";
const END_OF_INPUT = "\u0004";
const BACKSPACES = new Set(["\u0008", "\u007f"]);

/** The first line of the input, without its line end; null when the input ends before any text. */
async function firstLine(input: Readable): Promise<string | null> {
  let text = "";
  let readAny = false;
  for await (const chunk of input) {
    readAny = true;
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    const end = text.search(ENTER);
    if (end >= 0) return text.slice(0, end);
  }
  return readAny ? text : null;
}

/** Reads keys with the terminal's echo off until Enter; null when interrupted. */
function typedLine(input: Readable & Terminal, prompt: string, output: Writable): Promise<string | null> {
  output.write(prompt);
  input.setRawMode?.(true);
  input.setEncoding("utf8");
  return new Promise((resolve) => {
    let typed = "";
    const finish = (line: string | null): void => {
      input.off("data", onData);
      input.setRawMode?.(false);
      input.pause();
      output.write("\n");
      resolve(line);
    };
    const onData = (keys: string): void => {
      for (const key of keys) {
        if (ENTER.test(key)) return finish(typed);
        if (key === INTERRUPT || key === END_OF_INPUT) return finish(null);
        typed = BACKSPACES.has(key) ? typed.slice(0, -1) : typed + key;
      }
    };
    input.on("data", onData);
    input.resume();
  });
}

export function readPassword(input: Readable, prompt: string, promptTo: Writable): Promise<string | null> {
  const terminal = input as Readable & Terminal;
  return terminal.isTTY === true && typeof terminal.setRawMode === "function"
    ? typedLine(terminal, prompt, promptTo)
    : firstLine(input);
}
