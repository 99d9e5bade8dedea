// The build settings as webpack.config.js reads them, without building: which service
// and token addresses each kind of build starts with, and which it refuses.
import path from "node:path";
import HtmlWebpackPlugin from "html-webpack-plugin";
import { DefinePlugin, type Configuration } from "webpack";

type ConfigFactory = (env: unknown, argv: { mode: string }) => Configuration;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const configFactory = require(path.resolve(__dirname, "../../webpack.config.js")) as ConfigFactory;

const SETTINGS = [
  "PCD_ADDIN_URL",
  "PCD_SERVICE_URL",
  "PCD_AUTH_URL",
  "PCD_EMULATOR_PORT",
  "PCD_OFFICE_JS",
  "PCD_OIDC_AUTHORITY",
  "PCD_OIDC_CLIENT_ID",
  "PCD_OIDC_SCOPE",
  "PCD_LIBRARY_MODE",
] as const;

function configWith(
  mode: "production" | "development",
  env: Partial<Record<(typeof SETTINGS)[number], string>>,
) {
  const saved = SETTINGS.map((key) => [key, process.env[key]] as const);
  for (const key of SETTINGS) delete process.env[key];
  Object.assign(process.env, env);
  try {
    return configFactory({}, { mode });
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** What the config's DefinePlugin puts into the bundles, as JSON texts. */
function definitionsOf(config: Configuration): Record<string, string> {
  const define = config.plugins?.find((plugin) => plugin instanceof DefinePlugin);
  if (!define) throw new Error("no DefinePlugin in the config");
  return define.definitions as Record<string, string>;
}

function addresses(config: Configuration): { service: unknown; auth: unknown } {
  const definitions = definitionsOf(config);
  return {
    service: JSON.parse(definitions.__PCD_SERVICE_URL__ ?? "null"),
    auth: JSON.parse(definitions.__PCD_AUTH_URL__ ?? "null"),
  };
}

test.each<[string, "production" | "development", Record<string, string>, { service: string; auth: string }]>([
  [
    "production without addresses: none (asked at first sign-in)",
    "production",
    {},
    { service: "", auth: "" },
  ],
  [
    "production with the service address: the token address follows",
    "production",
    { PCD_SERVICE_URL: "https://gateway.example/pcd/" },
    { service: "https://gateway.example/pcd", auth: "https://gateway.example/pcd" },
  ],
  [
    "production with both",
    "production",
    { PCD_SERVICE_URL: "https://gateway.example", PCD_AUTH_URL: "https://login.example" },
    { service: "https://gateway.example", auth: "https://login.example" },
  ],
  [
    "development: the local emulator",
    "development",
    {},
    { service: "http://127.0.0.1:3001", auth: "http://127.0.0.1:3001" },
  ],
  [
    "development on another emulator port",
    "development",
    { PCD_EMULATOR_PORT: "4001" },
    { service: "http://127.0.0.1:4001", auth: "http://127.0.0.1:4001" },
  ],
])("%s", (_case, mode, env, expected) => {
  expect(addresses(configWith(mode, env))).toEqual(expected);
});

test.each([
  [{ PCD_SERVICE_URL: "http://gateway.example" }, /PCD_SERVICE_URL must be an https:\/\/ address/],
  [{ PCD_SERVICE_URL: "https://gateway.example", PCD_AUTH_URL: "http://login.example" }, /PCD_AUTH_URL/],
  [{ PCD_SERVICE_URL: "gateway.example" }, /PCD_SERVICE_URL must be an address/],
  [{ PCD_SERVICE_URL: "https://gateway.example/?key=1" }, /must not carry a query/],
])("production refuses %j", (env, message) => {
  expect(() => configWith("production", env)).toThrow(message);
});

test("production source maps carry no source text (dist/ ships no source and no development address)", () => {
  expect(configWith("production", {}).devtool).toBe("nosources-source-map");
  expect(configWith("development", {}).devtool).toBe("source-map");
});

function taskPaneOfficeJs(config: Configuration): unknown {
  const page = config.plugins?.find(
    (plugin): plugin is HtmlWebpackPlugin =>
      plugin instanceof HtmlWebpackPlugin && plugin.userOptions.filename === "taskpane.html",
  );
  if (!page) throw new Error("no taskpane.html in the config");
  return page.userOptions.officeJsUrl;
}

// The built development add-in is checked with PCD_OFFICE_JS set (test/build/webpack-build.test.ts
// shares the browser tests' build): these rows hold the defaults each kind of build starts with.
test.each<[string, "production" | "development", Record<string, string>, string]>([
  [
    "production: Microsoft's CDN",
    "production",
    {},
    "https://appsforoffice.microsoft.com/lib/1/hosted/office.js",
  ],
  [
    "development: the copy served with the add-in",
    "development",
    {},
    "https://localhost:3000/office-js/office.js",
  ],
  [
    "production with PCD_OFFICE_JS local",
    "production",
    { PCD_OFFICE_JS: "local", PCD_ADDIN_URL: "https://pcd.example.com/addin" },
    "https://pcd.example.com/addin/office-js/office.js",
  ],
  [
    "development with PCD_OFFICE_JS cdn",
    "development",
    { PCD_OFFICE_JS: "cdn" },
    "https://appsforoffice.microsoft.com/lib/1/hosted/office.js",
  ],
])("Office.js, %s", (_case, mode, env, expected) => {
  expect(taskPaneOfficeJs(configWith(mode, env))).toBe(expected);
});

const ENTRA_ISSUER = "https://login.microsoftonline.com/tenant-1/v2.0";
const ORG_SETTINGS = {
  PCD_OIDC_AUTHORITY: ENTRA_ISSUER,
  PCD_OIDC_CLIENT_ID: "client-1",
  PCD_OIDC_SCOPE: "api://gateway-1/access_as_user",
};

function orgSignIn(config: Configuration): {
  issuer: unknown;
  clientId: unknown;
  scope: unknown;
  msal: boolean;
} {
  const definitions = definitionsOf(config);
  const copies = JSON.stringify(
    config.plugins?.map((plugin) => plugin?.constructor.name === "CopyPlugin" && plugin),
  );
  return {
    issuer: JSON.parse(definitions.__PCD_OIDC_AUTHORITY__ ?? "null"),
    clientId: JSON.parse(definitions.__PCD_OIDC_CLIENT_ID__ ?? "null"),
    scope: JSON.parse(definitions.__PCD_OIDC_SCOPE__ ?? "null"),
    msal: copies.includes("msal-browser.min.js"),
  };
}

test.each<[string, "production" | "development", Record<string, string>, ReturnType<typeof orgSignIn>]>([
  [
    "none: no organisation sign-in, no MSAL.js copied",
    "production",
    {},
    { issuer: "", clientId: "", scope: "", msal: false },
  ],
  [
    "all three: the settings, and MSAL.js copied beside the pane",
    "production",
    ORG_SETTINGS,
    { issuer: ENTRA_ISSUER, clientId: "client-1", scope: "api://gateway-1/access_as_user", msal: true },
  ],
  [
    "a local issuer over http in development",
    "development",
    { ...ORG_SETTINGS, PCD_OIDC_AUTHORITY: "http://127.0.0.1:4100/" },
    {
      issuer: "http://127.0.0.1:4100",
      clientId: "client-1",
      scope: "api://gateway-1/access_as_user",
      msal: true,
    },
  ],
])("organisation sign-in settings, %s", (_case, mode, env, expected) => {
  expect(orgSignIn(configWith(mode, env))).toEqual(expected);
});

test.each<[string, Record<string, string>, RegExp]>([
  ["a missing client ID", { ...ORG_SETTINGS, PCD_OIDC_CLIENT_ID: "" }, /PCD_OIDC_CLIENT_ID missing/],
  ["a scope alone", { PCD_OIDC_SCOPE: "api://x/y" }, /PCD_OIDC_AUTHORITY, PCD_OIDC_CLIENT_ID missing/],
  [
    "an http issuer in production",
    { ...ORG_SETTINGS, PCD_OIDC_AUTHORITY: "http://login.example.com/t" },
    /https/,
  ],
])("organisation sign-in refuses %s", (_case, env, message) => {
  expect(() => configWith("production", env)).toThrow(message);
});

test("the dialog page loads its own runtime and script, with the page's policy and Office.js", () => {
  const page = configWith("production", ORG_SETTINGS).plugins?.find(
    (plugin): plugin is HtmlWebpackPlugin =>
      plugin instanceof HtmlWebpackPlugin && plugin.userOptions.filename === "dialog.html",
  );
  expect(page?.userOptions).toMatchObject({
    chunks: ["dialog-runtime", "dialog"],
    officeJsUrl: "https://appsforoffice.microsoft.com/lib/1/hosted/office.js",
    connectSources: "'self' https:",
  });
});

function buildKind(config: Configuration): { development: unknown; libraries: unknown } {
  const definitions = definitionsOf(config);
  return {
    development: JSON.parse(definitions.__PCD_DEVELOPMENT_BUILD__ ?? "null"),
    libraries: config.optimization?.nodeEnv,
  };
}

test.each<[string, "production" | "development", Record<string, string>, ReturnType<typeof buildKind>]>([
  ["production", "production", {}, { development: false, libraries: "production" }],
  ["development", "development", {}, { development: true, libraries: "development" }],
  [
    "development with the libraries' production code (the browser tests' build)",
    "development",
    { PCD_LIBRARY_MODE: "production" },
    { development: true, libraries: "production" },
  ],
  [
    "development, its libraries' development code asked for",
    "development",
    { PCD_LIBRARY_MODE: "development" },
    { development: true, libraries: "development" },
  ],
])("build kind and library code, %s", (_case, mode, env, expected) => {
  expect(buildKind(configWith(mode, env))).toEqual(expected);
});

test.each<[string, "production" | "development", string, string]>([
  [
    "an unknown mode",
    "development",
    "fast",
    'PCD_LIBRARY_MODE must be "production" or "development", not "fast".',
  ],
  [
    "development libraries in a production build",
    "production",
    "development",
    "PCD_LIBRARY_MODE: a production build ships the libraries' production code only.",
  ],
])("library mode refused: %s", (_case, mode, setting, message) => {
  expect(() => configWith(mode, { PCD_LIBRARY_MODE: setting })).toThrow(message);
});
