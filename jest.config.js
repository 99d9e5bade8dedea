/** Jest runs unit and integration tests (test/**) through ts-jest in transpile-only
 * mode: type checking is `npm run typecheck`'s job, which keeps the suite fast. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.jest.json", diagnostics: false }],
  },
  moduleNameMapper: {
    "^office-addin-manifest$": "<rootDir>/node_modules/office-addin-manifest/lib/officeApp.js",
  },
  testTimeout: 30000,
};
