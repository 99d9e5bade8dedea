/**
 * How TypeScript becomes JavaScript, for the add-in's bundles (webpack's swc-loader) and for
 * the tests (Jest's @swc/jest): one transpiler and one set of settings, so the tests run the
 * code the bundles carry. Type checking is `npm run typecheck`'s job. The settings follow
 * tsconfig.json: ES2022 classes with define semantics, React's automatic JSX runtime (`jsx`
 * calls, as tsc's react-jsx emits, in every build). The module format is left to each caller:
 * webpack keeps ES modules (it needs them to drop unused exports), Jest asks for CommonJS.
 *
 * swc transpiles file by file, several times faster than TypeScript's own transpiler: a
 * development build of the add-in takes about 10 CPU-seconds instead of 15, and a fresh
 * clone's first unit run (CI's every run) 78 instead of 125.
 *
 * A new object on every call: the loaders write into the options they are given (@swc/jest
 * adds its own transform), and one caller's additions must not reach another's build.
 */
const swcTypescript = () => ({
  jsc: {
    parser: { syntax: "typescript", tsx: true },
    target: "es2022",
    // `development` said outright: swc-loader would otherwise switch a development build to
    // React's jsxDEV, which the libraries' production code (the browser tests' build) lacks.
    transform: {
      react: { runtime: "automatic", development: false },
      useDefineForClassFields: true,
    },
  },
});

/** The same settings with CommonJS modules: Jest's tests and the processes tests start. */
const swcTypescriptCommonJs = () => ({ ...swcTypescript(), module: { type: "commonjs" } });

module.exports = { swcTypescript, swcTypescriptCommonJs };
