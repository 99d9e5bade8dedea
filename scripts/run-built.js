// `npm run serve` (and any production command built by tsconfig.server.json): runs the
// compiled JavaScript in dist-server/ with plain node, so a production install
// (`npm ci --omit=dev`) needs neither TypeScript nor tsx. Usage: node scripts/run-built.js NAME [ARGS...]
// runs dist-server/scripts/NAME.js with ARGS.
const { existsSync } = require("node:fs");
const path = require("node:path");

const [name = "", ...args] = process.argv.slice(2);
const entry = path.join(__dirname, "..", "dist-server", "scripts", `${name}.js`);

if (!/^[a-z][a-z-]*$/.test(name) || !existsSync(entry)) {
  process.stderr.write(
    `npm run ${name || "<command>"}: ${path.relative(process.cwd(), entry)} is missing: run npm run build first ` +
      "(where the devDependencies are installed; it compiles the server into dist-server/).\n",
  );
  process.exitCode = 1;
} else {
  // The built script reads its flags from process.argv as if node had started it directly.
  process.argv = [process.argv[0], entry, ...args];
  require(entry);
}
