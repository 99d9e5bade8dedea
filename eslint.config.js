// ESLint flat config: typescript-eslint's recommended rules, the Office add-in rules of
// eslint-plugin-office-addins, and the layers of docs/decisions.md D20 enforced as import
// restrictions (so a wrong dependency fails `npm test`).
const js = require("@eslint/js");
const tseslint = require("typescript-eslint");
const officeAddins = require("eslint-plugin-office-addins");
const prettierConfig = require("eslint-config-prettier");

const officeAddinRules = {
  "office-addins/call-sync-after-load": "error",
  "office-addins/call-sync-before-read": "error",
  "office-addins/load-object-before-read": "error",
  "office-addins/no-context-sync-in-loop": "warn",
  "office-addins/no-empty-load": "warn",
  "office-addins/no-navigational-load": "warn",
  "office-addins/no-office-initialize": "warn",
  "office-addins/test-for-null-using-isNullObject": "error",
};

// The layers of src (docs/decisions.md D20): for each folder, the folders of src it may not
// import and why. No folder but src/preview itself imports src/preview, the mock Office
// host, which only its own page and the tests load.
const SRC_FOLDERS = [
  "core",
  "contracts",
  "workbook",
  "host",
  "functions",
  "commands",
  "taskpane",
  "headless",
  "preview",
  "server",
  "gateway",
  "emulator",
];
const NODE_BUILT_INS = ["fs", "path", "http", "https", "os", "child_process", "crypto", "stream", "util"];
const UI = ["react", "react-dom", "react/*", "react-dom/*", "@fluentui/*", "@tanstack/*"];
const OFFICE_PACKAGES = ["office-*", "@microsoft/office-js"];
const allBut = (...allowed) => SRC_FOLDERS.filter((folder) => !allowed.includes(folder));
/** Of src/contracts, the one module shared by functions and task pane. */
const ONLY_FORMULA_OPTIONS = {
  group: ["**/contracts/*", "!**/contracts/formula-options"],
  message: "Of src/contracts, only formula-options is shared.",
};

const LAYERS = [
  {
    folder: "core",
    forbidden: allBut("core"),
    why: "Dependencies point inward to src/core: the engine imports no layer above it.",
    // Exact names, so the engine's own ./http folder is not mistaken for Node's http.
    paths: NODE_BUILT_INS.map((name) => ({ name, message: "src/core receives its environment." })),
    patterns: [
      { group: UI, message: "src/core has no UI imports." },
      { group: OFFICE_PACKAGES, message: "src/core has no Office imports." },
      { group: ["node:*"], message: "src/core receives its environment." },
    ],
  },
  {
    folder: "contracts",
    forbidden: [],
    why: "",
    patterns: [
      {
        group: ["./*", "../*", "**/*"],
        message: "A shared contract imports nothing, so both sides may import it.",
      },
    ],
  },
  {
    folder: "workbook",
    forbidden: allBut("workbook", "core", "contracts"),
    why: "Workbook logic (freeze, restore, formulas, reports) serves ribbon, pane, host and runner alike: it imports only src/core and src/contracts.",
    patterns: [
      { group: UI, message: "Workbook logic has no UI: the task pane shows what it returns." },
      { group: ["node:*"], message: "Workbook logic runs in Excel's browser runtime." },
      ONLY_FORMULA_OPTIONS,
    ],
  },
  {
    folder: "host",
    forbidden: allBut("host", "core", "workbook", "contracts"),
    why: "The host wires the engine and the workbook to Office for functions, ribbon and pane: it imports none of them.",
    patterns: [{ group: UI, message: "The host has no UI." }, ONLY_FORMULA_OPTIONS],
  },
  {
    folder: "functions",
    forbidden: allBut("functions", "core", "host", "contracts"),
    why: "The custom functions reach the engine through the host; workbook and pane code would only grow the functions bundle.",
    patterns: [{ group: UI, message: "Custom functions have no UI." }, ONLY_FORMULA_OPTIONS],
  },
  {
    folder: "commands",
    forbidden: allBut("commands", "core", "workbook", "host", "contracts"),
    why: "Ribbon commands run workbook actions through the host; they never load the task pane or the functions.",
    patterns: [{ group: UI, message: "Ribbon commands have no UI of their own." }, ONLY_FORMULA_OPTIONS],
  },
  {
    folder: "taskpane",
    forbidden: allBut("taskpane", "core", "workbook", "host", "contracts"),
    why: "The task pane shows the engine and the workbook through the host; it never imports functions, ribbon or runner.",
    patterns: [ONLY_FORMULA_OPTIONS],
  },
  {
    folder: "headless",
    forbidden: allBut("headless", "core", "functions", "workbook", "host", "contracts"),
    why: "The headless runner evaluates the real functions over the engine; it has no pane or ribbon.",
    patterns: [{ group: UI, message: "The headless runner has no UI." }, ONLY_FORMULA_OPTIONS],
  },
  {
    folder: "preview",
    forbidden: ["emulator", "server", "commands"],
    why: "The preview page is a mock Office host around the real add-in: it loads the add-in's entry points, not the emulator or the server.",
    patterns: [],
  },
  {
    folder: "server",
    forbidden: allBut("server"),
    why: "The production server serves dist/ and relays the service: it shares no code with the add-in.",
    patterns: [],
  },
  {
    folder: "gateway",
    forbidden: allBut("gateway", "core", "server"),
    why: "The team gateway speaks the service's API to any client: of the add-in it shares only the engine's reading of the service (codes, data types), and the production server's way of serving the built add-in.",
    patterns: [
      { group: UI, message: "The gateway has no UI." },
      { group: OFFICE_PACKAGES, message: "The gateway runs in Node." },
    ],
  },
  {
    folder: "emulator",
    forbidden: allBut("emulator"),
    why: "The emulator shares no code with the add-in (docs/decisions.md D21).",
    patterns: [],
  },
];

/** One no-restricted-imports rule per folder (a later rule for the same files would replace it). */
function layerRule({ folder, forbidden, why, paths = [], patterns }) {
  const layered =
    forbidden.length > 0 ? [{ group: forbidden.map((name) => `**/${name}/**`), message: why }] : [];
  return {
    files: [`src/${folder}/**/*.{ts,tsx}`],
    rules: { "no-restricted-imports": ["error", { paths, patterns: [...layered, ...patterns] }] },
  };
}

module.exports = tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "dist/**",
      "dist-server/**",
      "coverage/**",
      "bench/out/**",
      "test-results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "office-addins": officeAddins },
    rules: {
      ...officeAddinRules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "smart"],
      "no-console": "off",
    },
  },
  ...LAYERS.map(layerRule),
  {
    // The engine runs in Excel, in Node tests and in the headless runner alike.
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        "document",
        "window",
        "Office",
        "Excel",
        "CustomFunctions",
        "OfficeRuntime",
        "indexedDB",
        "localStorage",
      ],
    },
  },
  {
    files: ["**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", module: "writable", __dirname: "readonly", process: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  ...require("./eslint.source-rules"),
  prettierConfig,
);
