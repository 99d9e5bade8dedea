// Loaded with `node --require` into the processes tests start from the repository's
// TypeScript (test/support/typescript-process.ts): swc turns each .ts file into CommonJS as
// it is required, with the settings the bundles and Jest use (swc.typescript.js), and
// import() into require() as Jest does. tsx costs more a process (its ES module hooks run a
// thread of their own) and the tests start dozens of these processes.
const { transformSync } = require("@swc/core");
const { addHook } = require("pirates");
const { swcTypescriptCommonJs } = require("../../swc.typescript");

const options = swcTypescriptCommonJs();

addHook((code, filename) => transformSync(code, { ...options, filename }).code, {
  exts: [".ts", ".tsx"],
});
