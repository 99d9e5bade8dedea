import path from "node:path";
import { webpackCache } from "../../scripts/webpack-cache";

const production = { mode: "production", env: { PCD_ADDIN_URL: "https://pcd.example.com" } };

describe("webpackCache", () => {
  test.each([
    { when: "the same kind and settings", kind: "addin", settings: { ...production }, shared: true },
    { when: "another kind", kind: "harness", settings: production, shared: false },
    { when: "another mode", kind: "addin", settings: { ...production, mode: "development" }, shared: false },
    {
      when: "another setting",
      kind: "addin",
      settings: { ...production, env: { PCD_ADDIN_URL: "https://other.example.com" } },
      shared: false,
    },
  ])("$when as a production add-in build: one cache is $shared", ({ kind, settings, shared }) => {
    const first = webpackCache("addin", production);
    const second = webpackCache(kind, settings);
    expect(first.name === second.name).toBe(shared);
    expect(second.name?.startsWith(`${kind}-`)).toBe(true);
  });

  test("lives in node_modules/.cache and starts over when the webpack configuration changes", () => {
    const cache = webpackCache("addin", production);
    const root = path.resolve(__dirname, "../..");
    expect(cache.cacheDirectory).toBe(path.join(root, "node_modules", ".cache", "pcd-webpack"));
    expect(cache.buildDependencies?.config).toContain(path.join(root, "webpack.config.js"));
    expect(webpackCache("harness", {}, ["/repo/harness-config.ts"]).buildDependencies?.config).toContain(
      "/repo/harness-config.ts",
    );
  });
});
