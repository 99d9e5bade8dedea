// Types of the CommonJS plugin beside this file, for the RuleTester tests in TypeScript.
import type { Rule } from "eslint";

declare const plugin: {
  meta: { name: string };
  rules: Record<
    "emulator-clock-pinned" | "cli-child-sets-pcd-now" | "no-request-key-parsing" | "message-bar-multiline",
    Rule.RuleModule
  >;
};
export = plugin;
