// The repository's source rules (eslint/local-rules.js): each catches what it names and lets
// the code the repository writes pass. Rows: [code, what the rule reports (none: valid)].
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import localRules from "../../eslint/local-rules";

const tester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { ecmaFeatures: { jsx: true } },
  },
});

type RuleName = keyof typeof localRules.rules;
type Row = [code: string, reported: readonly string[]];

function check(rule: RuleName, rows: readonly Row[]): void {
  tester.run(rule, localRules.rules[rule], {
    valid: rows.filter(([, reported]) => reported.length === 0).map(([code]) => code),
    invalid: rows
      .filter(([, reported]) => reported.length > 0)
      .map(([code, reported]) => ({ code, errors: reported.map((messageId) => ({ messageId })) })),
  });
}

check("emulator-clock-pinned", [
  ["await startEmulator({ quiet: true, now: START, port: 0 });", []],
  ["await startEmulator({ port: 0, quiet: true, now });", []],
  ['await startEmulator({\n  "now": QUIET,\n  quiet: true,\n});', []],
  ["await startEmulator({ ...options, now: options.now, quiet: true });", []],
  ["await other({ port: 0 });", []],
  ["await startEmulator({ port: 0, quiet: true, ...options });", ["unpinned"]],
  ["await startEmulator({ port: 0, quiet: true, nowhere: 1 });", ["unpinned"]],
  ["await startEmulator();", ["unpinned"]],
  ["await startEmulator(options);", ["unpinned"]],
  ["await emulators.startEmulator({ quiet: true });", ["unpinned"]],
]);

check("cli-child-sets-pcd-now", [
  [
    'const CLI = path.join(ROOT, "src", "headless", "cli.ts");\nspawn("npx", ["tsx", CLI], { env: { ...process.env, PCD_NOW: START } });',
    [],
  ],
  ['execFileSync("npx", ["tsx", "src/headless/cli.ts"], { env: { PCD_NOW: QUIET_DAY } });', []],
  ['const CLI = path.join(ROOT, "src", "emulator", "cli.ts");\nspawn("npx", ["tsx", CLI]);', []],
  ['const CLI = path.join(ROOT, "src", "headless", "cli.ts");\nreadFileSync(CLI, "utf8");', []],
  [
    'const CLI = path.join(ROOT, "src", "headless", "cli.ts");\nspawn("npx", ["tsx", CLI], { env: process.env });',
    ["missing"],
  ],
  ['child.execFile("npx", ["tsx", "src/headless/cli.ts"]);', ["missing"]],
  [
    'const CLI = path.join(__dirname, "..", "headless", "cli.ts");\nspawnSync("npx", [CLI]);\nfork(CLI);',
    ["missing", "missing"],
  ],
]);

check("no-request-key-parsing", [
  ["const id = requestKeyOf(key).id;", []],
  ['const words = text.split(" ");', []],
  ['const parts = line.split("||");', []],
  ["const found = findRequestKey(id);", []],
  ['const [environment, product] = key.split("|");', ["split"]],
  ["const parts = key.split('|');", ["split"]],
  ["const parts = key.split(`|`);", ["split"]],
  ["const parts = key.split(/\\|/);", ["split"]],
  ["const parts = parseRequestKey(key);", ["parser"]],
  ["function keyParts(id: string) { return id; }", ["parser"]],
  ["import { parseKey } from './keys';", ["parser", "parser"]],
]);

check("message-bar-multiline", [
  ['const bar = <MessageBar layout="multiline">text</MessageBar>;', []],
  ['const bar = <MessageBar intent="error" layout={"multiline"}>text</MessageBar>;', []],
  ["const body = <MessageBarBody>text</MessageBarBody>;", []],
  ["const bar = <MessageBar>text</MessageBar>;", ["single"]],
  ['const bar = <MessageBar intent="error">text</MessageBar>;', ["single"]],
  ['const bar = <MessageBar\n  intent="warning"\n  role="alert"\n>text</MessageBar>;', ["single"]],
  ['const bar = <MessageBar layout="singleline">text</MessageBar>;', ["single"]],
  ["const bar = <MessageBar layout={layout}>text</MessageBar>;", ["single"]],
]);
