// ESLint flat config: typescript-eslint's recommended rules, the Office add-in rules of
// eslint-plugin-office-addins, and the architecture rules of docs/decisions.md D20
// enforced as import restrictions (so a wrong dependency fails `npm test`).
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
  {
    // The engine: no Office, no DOM UI, no Node built-ins, no emulator code.
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          // Exact names, so the engine's own ./http folder is not mistaken for Node's http.
          paths: ["fs", "path", "http", "https", "os", "child_process"].map((name) => ({
            name,
            message: "src/core receives its environment.",
          })),
          patterns: [
            {
              group: ["react", "react-dom", "react/*", "@fluentui/*"],
              message: "src/core has no UI imports.",
            },
            { group: ["office-*", "@microsoft/office-js"], message: "src/core has no Office imports." },
            { group: ["node:*"], message: "src/core receives its environment." },
            {
              group: [
                "**/emulator/**",
                "**/functions/**",
                "**/taskpane/**",
                "**/commands/**",
                "**/headless/**",
              ],
              message: "Dependencies point inward to src/core.",
            },
          ],
        },
      ],
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
    // The emulator shares no code with the engine (docs/decisions.md D21).
    files: ["src/emulator/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/core/**", "**/functions/**", "**/taskpane/**", "**/commands/**", "**/headless/**"],
              message: "The emulator shares no code with the add-in.",
            },
          ],
        },
      ],
    },
  },
  {
    // The contracts shared by functions and task pane (src/contracts/formula-options.ts)
    // stand alone: they import nothing from either side, nor Office, UI or Node.
    files: ["src/contracts/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["./*", "../*", "**/*"],
              message: "A shared contract imports nothing, so both sides may import it.",
            },
          ],
        },
      ],
    },
  },
  {
    // Functions and task pane never import each other; of src/contracts they may import
    // exactly the formula options contract.
    files: ["src/functions/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/taskpane/**", "**/emulator/**"],
              message: "Functions do not import the task pane or the emulator.",
            },
            {
              group: ["**/contracts/*", "!**/contracts/formula-options"],
              message: "Of src/contracts, only formula-options is shared.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/taskpane/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/functions/**", "**/emulator/**"],
              message: "The task pane does not import functions or the emulator.",
            },
            {
              group: ["**/contracts/*", "!**/contracts/formula-options"],
              message: "Of src/contracts, only formula-options is shared.",
            },
          ],
        },
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
