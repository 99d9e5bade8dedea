// Builds the add-in: one page (taskpane.html) that loads the functions, commands and
// task pane bundles into Excel's shared runtime.
//
// Settings (environment variables):
//   PCD_ADDIN_URL  origin the add-in is served from (default https://localhost:3000);
//                  every https://localhost:3000 in the manifest and functions.json is
//                  rewritten to it in production builds.
//   PCD_OFFICE_JS  "cdn" (Microsoft's CDN, the production default) or "local" (a copy of
//                  @microsoft/office-js served with the add-in: development, tests, offline).
//   PCD_SERVICE_URL the service address the pane and cells start with (https in production;
//                  default: none in production, so the pane asks for it at first sign-in;
//                  the local emulator, http://127.0.0.1:PCD_EMULATOR_PORT, in development).
//   PCD_AUTH_URL   the token address (default: PCD_SERVICE_URL).
//   PCD_OIDC_AUTHORITY, PCD_OIDC_CLIENT_ID, PCD_OIDC_SCOPE  organisation sign-in (all three or
//                  none): the OpenID Connect issuer (for Microsoft Entra ID
//                  https://login.microsoftonline.com/<tenant id>/v2.0, the gateway's
//                  --oidc-issuer), the add-in's application (client) ID, and the gateway's scope
//                  (api://<gateway client id>/access_as_user). With them the sign-in panel offers
//                  "Sign in with your organisation" (src/host/org-sign-in/settings.ts).
// Production bundles carry no loopback address: the emulator preset and the CSP's
// loopback sources exist in development builds only.
const path = require("path");
const { URL } = require("url");
const webpack = require("webpack");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const MinimizerPlugin = require("minimizer-webpack-plugin");
const { swcTypescript } = require("./swc.typescript");

const DEV_ORIGIN = "https://localhost:3000";
const CDN_OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
const LOCAL_OFFICE_JS = "office-js/office.js";
// The files of @microsoft/office-js that Excel needs (the package is 86 MB; copying
// all of it makes the production build spend minutes minifying).
const OFFICE_JS_FILES = [
  "office.js",
  "o15apptofilemappingtable.js",
  "custom-functions-runtime.js",
  "excel-*.js",
  "excelwebapp-*.js",
  "en-us/**",
  "telemetry/**",
  "ariatelemetry/**",
];

function addinOrigin(mode) {
  const url = process.env.PCD_ADDIN_URL || DEV_ORIGIN;
  if (mode === "production" && !/^https:\/\//.test(url)) {
    throw new Error(`PCD_ADDIN_URL must be an https:// origin, got "${url}"`);
  }
  return url.replace(/\/+$/, "");
}

function localEmulatorUrl() {
  return `http://127.0.0.1:${process.env.PCD_EMULATOR_PORT || 3001}`;
}

/** A build-time service or token address: https in production, no trailing slash. */
function buildAddress(name, mode, fallback) {
  const value = (process.env[name] || "").trim() || fallback;
  if (value === "") return "";
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an address such as https://pcd.example.com, got "${value}"`);
  }
  if (mode === "production" && url.protocol !== "https:") {
    throw new Error(`${name} must be an https:// address in production builds, got "${value}"`);
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new Error(`${name} must not carry a query, fragment or credentials, got "${value}"`);
  }
  return value.replace(/\/+$/, "");
}

/** The pane's connect-src: any https service; the loopback emulator in development only. */
function connectSources(mode) {
  return mode === "production" ? "'self' https:" : "'self' https: http://localhost:* http://127.0.0.1:*";
}

/** The organisation sign-in settings: all three or none; the issuer https in production. */
function orgSignIn(mode) {
  const names = ["PCD_OIDC_AUTHORITY", "PCD_OIDC_CLIENT_ID", "PCD_OIDC_SCOPE"];
  const values = names.map((name) => (process.env[name] || "").trim());
  const given = names.filter((_name, index) => values[index] !== "");
  if (given.length === 0) return { issuer: "", clientId: "", scope: "" };
  if (given.length < names.length) {
    const missing = names.filter((name) => !given.includes(name));
    throw new Error(`Organisation sign-in needs ${names.join(", ")}: ${missing.join(", ")} missing`);
  }
  return { issuer: buildAddress("PCD_OIDC_AUTHORITY", mode, ""), clientId: values[1], scope: values[2] };
}

function libraryMode(mode) {
  const setting = (process.env.PCD_LIBRARY_MODE || "").trim();
  if (setting === "") return mode;
  if (setting !== "production" && setting !== "development") {
    throw new Error(`PCD_LIBRARY_MODE must be "production" or "development", not "${setting}".`);
  }
  if (mode === "production" && setting !== "production") {
    throw new Error("PCD_LIBRARY_MODE: a production build ships the libraries' production code only.");
  }
  return setting;
}

function officeJsSource(mode) {
  const setting = process.env.PCD_OFFICE_JS || (mode === "production" ? "cdn" : "local");
  if (setting !== "cdn" && setting !== "local") {
    throw new Error(`PCD_OFFICE_JS must be "cdn" or "local", got "${setting}"`);
  }
  return setting;
}

function rewriteOrigin(origin) {
  return (content) => content.toString().split(DEV_ORIGIN).join(origin);
}

module.exports = (_env, argv) => {
  const mode = argv.mode || "development";
  const origin = addinOrigin(mode);
  const officeJs = officeJsSource(mode);
  const serviceUrl = buildAddress("PCD_SERVICE_URL", mode, mode === "production" ? "" : localEmulatorUrl());
  const authUrl = buildAddress("PCD_AUTH_URL", mode, serviceUrl);
  const oidc = orgSignIn(mode);
  const officeJsCopies =
    officeJs === "local"
      ? OFFICE_JS_FILES.map((pattern) => ({
          from: pattern,
          context: path.resolve(__dirname, "node_modules/@microsoft/office-js/dist"),
          to: "office-js/",
          globOptions: { ignore: ["**/*.debug.js"] },
          // Already minified by Microsoft: minifying them again costs minutes.
          info: { minimized: true },
        }))
      : [];

  // Task pane issue: the preview page (a mock Excel host with a grid and the real task
  // pane, src/preview) exists in development builds only; production ships no mock.
  const preview = mode === "development";

  return {
    mode,
    // No eval-based source maps: the page's content security policy forbids eval.
    // Production maps carry no source text (stack traces still resolve): dist/ ships no
    // source, and no development address from a source comment.
    devtool: mode === "production" ? "nosources-source-map" : "source-map",
    entry: {
      functions: ["./src/host/browser-host.ts", "./src/functions/functions.ts"],
      commands: "./src/commands/commands.ts",
      taskpane: "./src/taskpane/index.ts",
      // The organisation sign-in's Office dialog page (the fallback to nested app authentication).
      // A runtime of its own: the shared runtime chunk, loaded with the functions, stays as it is.
      dialog: { import: "./src/host/org-sign-in/dialog-page.ts", runtime: "dialog-runtime" },
      ...(preview
        ? {
            preview: "./src/preview/index.ts",
            // The dialog page under the preview's Office (src/preview/mock-dialog.ts says why).
            "preview-dialog": {
              import: ["./src/preview/dialog-office.ts", "./src/host/org-sign-in/dialog-page.ts"],
              runtime: "preview-dialog-runtime",
            },
          }
        : {}),
    },
    output: {
      path: path.resolve(__dirname, "dist"),
      filename: "[name].js",
      chunkFilename: "[name].[contenthash:8].js",
      clean: true,
    },
    resolve: { extensions: [".ts", ".tsx", ".js"] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: { loader: "swc-loader", options: swcTypescript() },
        },
      ],
    },
    optimization: {
      // Which code the libraries (React, Fluent UI) run: their own mode's, unless
      // PCD_LIBRARY_MODE=production asks a development build for their production code, as
      // the browser tests do (a page opens and signs in in half the time; the code users run).
      nodeEnv: libraryMode(mode),
      // One webpack runtime for the page's bundles: modules they share (the engine
      // holder in src/host) are instantiated once, which is what makes one engine per
      // shared runtime.
      runtimeChunk: "single",
      // swc's minifier: a production build in about 15 CPU-seconds instead of Terser's 39, and
      // bundles no larger (the functions runtime a few hundred bytes smaller, gzipped).
      minimizer: [new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify })],
    },
    performance: { hints: false },
    plugins: [
      // Read by src/host/build-addresses.ts (src/core never sees a build global).
      new webpack.DefinePlugin({
        __PCD_SERVICE_URL__: JSON.stringify(serviceUrl),
        __PCD_AUTH_URL__: JSON.stringify(authUrl),
        __PCD_OIDC_AUTHORITY__: JSON.stringify(oidc.issuer),
        __PCD_OIDC_CLIENT_ID__: JSON.stringify(oidc.clientId),
        __PCD_OIDC_SCOPE__: JSON.stringify(oidc.scope),
        // Read by src/host/build-kind.ts: what only a development build shows.
        __PCD_DEVELOPMENT_BUILD__: JSON.stringify(mode === "development"),
      }),
      new CustomFunctionsMetadataPlugin({
        output: "functions.json",
        input: "./src/functions/functions.ts",
      }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        chunks: ["runtime", "functions", "commands", "taskpane"],
        chunksSortMode: "manual",
        officeJsUrl: officeJs === "cdn" ? CDN_OFFICE_JS : `${origin}/${LOCAL_OFFICE_JS}`,
        officeJsOrigin: officeJs === "cdn" ? "https://appsforoffice.microsoft.com" : "",
        connectSources: connectSources(mode),
      }),
      new HtmlWebpackPlugin({
        filename: "dialog.html",
        template: "./src/host/org-sign-in/dialog.html",
        chunks: ["dialog-runtime", "dialog"],
        chunksSortMode: "manual",
        officeJsUrl: officeJs === "cdn" ? CDN_OFFICE_JS : `${origin}/${LOCAL_OFFICE_JS}`,
        officeJsOrigin: officeJs === "cdn" ? "https://appsforoffice.microsoft.com" : "",
        connectSources: connectSources(mode),
      }),
      // Preview page (development only): the mock host's bundle runs first so Office, Excel
      // and CustomFunctions exist before the add-in's bundles; no Office.js is loaded.
      ...(preview
        ? [
            new HtmlWebpackPlugin({
              filename: "preview.html",
              template: "./src/preview/preview.html",
              chunks: ["runtime", "preview", "functions", "commands", "taskpane"],
              chunksSortMode: "manual",
            }),
            new HtmlWebpackPlugin({
              filename: "preview-dialog.html",
              template: "./src/preview/preview-dialog.html",
              chunks: ["preview-dialog-runtime", "preview-dialog"],
              chunksSortMode: "manual",
            }),
          ]
        : []),
      new CopyWebpackPlugin({
        patterns: [
          ...(preview ? [{ from: "src/preview/preview.css", to: "preview.css" }] : []),
          { from: "assets/*.png", to: "assets/[name][ext]" },
          { from: "src/taskpane/help.html", to: "help.html" },
          // MSAL.js's own browser build: the pane loads it as a script on "Sign in with your
          // organisation" where Office offers nested app authentication (src/host/org-sign-in).
          ...(oidc.issuer !== ""
            ? [
                {
                  from: "node_modules/@azure/msal-browser/lib/msal-browser.min.js",
                  to: "msal-browser.min.js",
                  info: { minimized: true },
                },
              ]
            : []),
          // The keyboard shortcuts the manifest's ExtendedOverrides points at.
          { from: "assets/shortcuts.json", to: "shortcuts.json" },
          { from: "manifest.xml", to: "manifest.xml", transform: rewriteOrigin(origin) },
          ...officeJsCopies,
        ],
      }),
      {
        // functions.json carries @helpurl addresses: point them at the deployed origin.
        apply(compiler) {
          compiler.hooks.thisCompilation.tap("PcdRewriteOrigin", (compilation) => {
            compilation.hooks.processAssets.tap(
              {
                name: "PcdRewriteOrigin",
                stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE,
              },
              () => {
                const asset = compilation.getAsset("functions.json");
                if (!asset || origin === DEV_ORIGIN) return;
                const text = rewriteOrigin(origin)(asset.source.source());
                compilation.updateAsset("functions.json", new compiler.webpack.sources.RawSource(text));
              },
            );
          });
        },
      },
    ],
    devServer: {
      port: 3000,
      host: "localhost",
      headers: { "Access-Control-Allow-Origin": "*" },
      static: false,
      hot: false,
      liveReload: false,
      client: false,
    },
  };
};
