// The modules Jest loads for Fluent's two large packages (jest.config.js, moduleNameMapper)
// export what the packages' own CommonJS indexes export: the same names, and for each name the
// same value, read from the same module. Here the real indexes are required by their paths,
// which the mapping does not catch.
import path from "node:path";

const root = path.resolve(__dirname, "../..");

test.each([
  ["@fluentui/react-components", "node_modules/@fluentui/react-components/lib-commonjs/index.cjs"],
  ["@fluentui/react-icons", "node_modules/@fluentui/react-icons/lib-cjs/index.cjs"],
])("%s: the on-demand module exports every name of %s, each the same value", (name, index) => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const onDemand = require(name) as Record<string, unknown>;
  const real = require(path.join(root, index)) as Record<string, unknown>;
  /* eslint-enable @typescript-eslint/no-require-imports */
  expect(onDemand).not.toBe(real);
  expect(Object.keys(onDemand).sort()).toEqual(Object.keys(real).sort());
  const differing = Object.keys(real).filter((key) => onDemand[key] !== real[key]);
  expect(differing).toEqual([]);
  expect(Object.keys(real).length).toBeGreaterThan(1000);
});
