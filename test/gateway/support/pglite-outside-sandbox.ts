// PGlite loads parts of itself (its Node file system, its WASM glue) with import(), which Jest's
// module sandbox runs only under --experimental-vm-modules. A test that opens PGlite imports this
// module first: from then on the test's modules get PGlite as Node itself loads it. Jest hands
// tests its own node:module and process, whose require is the sandbox's: Node's own comes from
// the process object outside the sandbox.
import { runInThisContext } from "node:vm";

const nodeProcess = runInThisContext("process") as NodeJS.Process;
const nodeRequire = nodeProcess.getBuiltinModule("node:module").createRequire(__filename);

jest.mock("@electric-sql/pglite", () => nodeRequire("@electric-sql/pglite") as unknown);
