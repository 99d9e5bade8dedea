// Excel computes an unquoted code such as =PCD.VALUES(68520-8-1) as arithmetic and passes
// the number (68511) to the function, which then explains the mistake. The headless
// formula grammar reads literals only, so the preview first replaces each top-level
// argument that is plain arithmetic on numbers by its value, the way Excel would.

/** Numbers joined by + - * / (with optional parentheses and spaces), nothing else. */
const ARITHMETIC = /^[\d\s.+\-*/()]+$/;
const HAS_OPERATOR = /\d\s*[-+*/]\s*[\d(]/;

/** The formula with its arithmetic arguments computed, or null when there are none. */
export function computeArithmeticArguments(formula: string): string | null {
  const open = formula.indexOf("(");
  const close = formula.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const args = splitArguments(formula.slice(open + 1, close));
  let changed = false;
  const computed = args.map((arg) => {
    const text = arg.trim();
    if (!ARITHMETIC.test(text) || !HAS_OPERATOR.test(text)) return arg;
    const value = evaluate(text);
    if (value === null) return arg;
    changed = true;
    return String(value);
  });
  return changed ? `${formula.slice(0, open + 1)}${computed.join(",")}${formula.slice(close)}` : null;
}

/** Splits at top-level commas, outside text literals and parentheses. */
function splitArguments(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === "(") depth += 1;
    else if (!quoted && char === ")") depth -= 1;
    if (!quoted && depth === 0 && char === ",") {
      args.push(current);
      current = "";
    } else current += char;
  }
  args.push(current);
  return args;
}

/** Evaluates + - * / and parentheses with the usual precedence; null if malformed. */
export function evaluate(text: string): number | null {
  const tokens = text.match(/\d+(?:\.\d*)?|\.\d+|[-+*/()]/g) ?? [];
  if (tokens.join("") !== text.replace(/\s+/g, "")) return null;
  let position = 0;
  const peek = (): string | undefined => tokens[position];
  const expression = (): number => {
    let value = term();
    while (peek() === "+" || peek() === "-")
      value = tokens[position++] === "+" ? value + term() : value - term();
    return value;
  };
  const term = (): number => {
    let value = factor();
    while (peek() === "*" || peek() === "/")
      value = tokens[position++] === "*" ? value * factor() : value / factor();
    return value;
  };
  const factor = (): number => {
    const token = tokens[position++];
    if (token === "-") return -factor();
    if (token === "+") return factor();
    if (token === "(") {
      const value = expression();
      if (tokens[position++] !== ")") throw new Error("unbalanced");
      return value;
    }
    if (token === undefined || !/^[\d.]/.test(token)) throw new Error("expected a number");
    return Number(token);
  };
  try {
    const value = expression();
    return position === tokens.length && Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}
