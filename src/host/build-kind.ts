// Whether this bundle is a development build (webpack's mode, put in by its DefinePlugin as
// __PCD_DEVELOPMENT_BUILD__, see webpack.config.js). Kept apart from process.env.NODE_ENV,
// which says which code the libraries run: the browser tests' development build runs React's
// production code (PCD_LIBRARY_MODE) and still shows what a development build shows.
declare const __PCD_DEVELOPMENT_BUILD__: boolean | undefined;

/** True in development builds; outside a webpack build (tests, the component harness) too. */
export function isDevelopmentBuild(): boolean {
  return typeof __PCD_DEVELOPMENT_BUILD__ === "boolean" ? __PCD_DEVELOPMENT_BUILD__ : true;
}
