// The types of swc.typescript.js for the TypeScript that imports it (the component harness build).
import type { Options } from "@swc/core";

export declare function swcTypescript(): Options;
export declare function swcTypescriptCommonJs(): Options;
