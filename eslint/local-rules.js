// The repository's own source rules, as an ESLint plugin (registered as "pcd" by
// eslint.source-rules.js). Each rule states a fact about this code base that a reader of
// one file cannot check by eye; test/eslint/local-rules.test.ts holds their cases.

/** The text of a string literal or of a template literal without expressions, else undefined. */
function literalText(node) {
  if (node === undefined || node === null) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

/** The name of a property key (`now`, `"now"`), or undefined for a computed one. */
function keyName(property) {
  if (property.computed) return undefined;
  if (property.key.type === "Identifier") return property.key.name;
  return literalText(property.key);
}

/** The name a call is made by: `f(...)` and `x.f(...)` both give "f". */
function calleeName(call) {
  const callee = call.callee;
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier")
    return callee.property.name;
  return undefined;
}

// The emulator keeps the real service's calendar (maintenance on the 15th and 25th, the
// monthly release day) and the engine predicts the same days from its own clock: a test that
// starts the emulator on the real clock passes on most days and fails on those.
const emulatorClockPinned = {
  meta: {
    type: "problem",
    docs: { description: "Every emulator a test or the benchmark starts has its clock set (`now`)." },
    schema: [],
    messages: {
      unpinned:
        "startEmulator needs `now` in its options: on the real clock the emulator's maintenance and release days follow today's date.",
    },
  },
  create(context) {
    return {
      CallExpression(node) {
        if (calleeName(node) !== "startEmulator") return;
        const options = node.arguments[0];
        const pinned =
          options !== undefined &&
          options.type === "ObjectExpression" &&
          options.properties.some((property) => property.type === "Property" && keyName(property) === "now");
        if (!pinned) context.report({ node, messageId: "unpinned" });
      },
    };
  },
};

const CHILD_PROCESS_CALLS = new Set(["spawn", "spawnSync", "execFile", "execFileSync", "fork"]);

const HEADLESS_CLI = /(^|\/)headless\/cli\.ts$/;

/** Whether a call's string arguments name src/headless/cli.ts as path parts (path.join). */
function joinsHeadlessCli(call) {
  const texts = call.arguments.map(literalText).filter((text) => text !== undefined);
  return HEADLESS_CLI.test(texts.join("/"));
}

// The recalc CLI in a child process reads its clock from PCD_NOW; without it the engine
// judges maintenance and release days by today's date (the same trap as above).
const cliChildSetsPcdNow = {
  meta: {
    type: "problem",
    docs: { description: "A file that runs the recalc CLI in a child process sets PCD_NOW." },
    schema: [],
    messages: {
      missing:
        "This file runs src/headless/cli.ts in a child process without PCD_NOW in its environment: the engine's clock would be today's date.",
    },
  },
  create(context) {
    let namesCli = false;
    let setsClock = false;
    const spawns = [];
    return {
      Literal(node) {
        if (HEADLESS_CLI.test(literalText(node) ?? "")) namesCli = true;
      },
      TemplateLiteral(node) {
        if (HEADLESS_CLI.test(literalText(node) ?? "")) namesCli = true;
      },
      CallExpression(node) {
        if (joinsHeadlessCli(node)) namesCli = true;
        if (CHILD_PROCESS_CALLS.has(calleeName(node))) spawns.push(node);
      },
      Property(node) {
        if (keyName(node) === "PCD_NOW") setsClock = true;
      },
      "Program:exit"() {
        if (!namesCli || setsClock) return;
        for (const node of spawns) context.report({ node, messageId: "missing" });
      },
    };
  },
};

const KEY_PARSERS = new Set(["parseRequestKey", "parseKey", "keyParts"]);

// Request keys are structured (src/core/request-key.ts): their string form names them in
// maps, subscriptions and storage, and no code reads their parts back out of it.
const noRequestKeyParsing = {
  meta: {
    type: "problem",
    docs: { description: "No code splits or parses a request key's id back into parts." },
    schema: [],
    messages: {
      split: "Splitting text on '|' reads a request key id back into parts: keep the structured RequestKey.",
      parser: "'{{name}}' parses request key ids: keep the structured RequestKey instead.",
    },
  },
  create(context) {
    return {
      CallExpression(node) {
        if (calleeName(node) !== "split" || node.callee.type !== "MemberExpression") return;
        const separator = node.arguments[0];
        const onBar =
          literalText(separator) === "|" ||
          (separator !== undefined && separator.type === "Literal" && separator.regex?.pattern === "\\|");
        if (onBar) context.report({ node, messageId: "split" });
      },
      Identifier(node) {
        if (KEY_PARSERS.has(node.name))
          context.report({ node, messageId: "parser", data: { name: node.name } });
      },
    };
  },
};

/** The value of a JSX attribute when it is a fixed string: `a="x"` or `a={"x"}`. */
function attributeText(attribute) {
  const value = attribute.value;
  if (value === null) return undefined;
  if (value.type === "JSXExpressionContainer") return literalText(value.expression);
  return literalText(value);
}

// Fluent's MessageBar defaults to layout "auto": one line that does not wrap, switching to
// several only when a ResizeObserver sees its box change size. A message that grows after it
// is shown keeps its box, never reflows, and pushes a 320 px pane into horizontal scrolling.
const messageBarMultiline = {
  meta: {
    type: "problem",
    docs: { description: 'Every MessageBar in the task pane asks for layout="multiline".' },
    schema: [],
    messages: {
      single:
        'MessageBar needs layout="multiline": the default layout keeps one line and a message that grows scrolls the pane sideways.',
    },
  },
  create(context) {
    return {
      JSXOpeningElement(node) {
        if (node.name.type !== "JSXIdentifier" || node.name.name !== "MessageBar") return;
        const multiline = node.attributes.some(
          (attribute) =>
            attribute.type === "JSXAttribute" &&
            attribute.name.name === "layout" &&
            attributeText(attribute) === "multiline",
        );
        if (!multiline) context.report({ node, messageId: "single" });
      },
    };
  },
};

module.exports = {
  meta: { name: "pcd-local-rules" },
  rules: {
    "emulator-clock-pinned": emulatorClockPinned,
    "cli-child-sets-pcd-now": cliChildSetsPcdNow,
    "no-request-key-parsing": noRequestKeyParsing,
    "message-bar-multiline": messageBarMultiline,
  },
};
