import { readFileSync } from "node:fs";
import path from "node:path";
import { checkRepositoryManifest } from "../../scripts/check-manifest";

const root = path.resolve(__dirname, "../..");
const manifest = readFileSync(path.join(root, "manifest.xml"), "utf8");

function mutate(from: string, to: string): string {
  if (!manifest.includes(from)) throw new Error(`the manifest no longer contains ${from}`);
  return manifest.replace(from, to);
}

describe("offline manifest check", () => {
  test("the repository's manifest, functions and commands are consistent", async () => {
    await expect(checkRepositoryManifest(root)).resolves.toEqual([]);
  });

  // One row per way a manifest edit breaks the add-in, with the problem it must report.
  test.each([
    [
      "a broken resid",
      mutate('<Namespace resid="Functions.Namespace"/>', '<Namespace resid="Functions.Namespce"/>'),
      /Functions\.Namespce.*not defined/,
    ],
    ["malformed XML", mutate("</Permissions>", "</Permission>"), /not well-formed XML/],
    [
      "an icon on another origin",
      mutate(
        'DefaultValue="https://localhost:3000/assets/icon-16.png"',
        'DefaultValue="https://cdn.example.com/icon-16.png"',
      ),
      /one origin/,
    ],
    ["an http URL", manifest.split("https://localhost:3000").join("http://localhost:3000"), /not HTTPS/],
    ["a short-lived runtime", mutate('lifetime="long"', 'lifetime="short"'), /lifetime="long"/],
    [
      "functions page off the runtime page",
      mutate(
        '<Page>\n              <SourceLocation resid="Taskpane.Url"/>',
        '<Page>\n              <SourceLocation resid="Functions.Script.Url"/>',
      ),
      /same resid/,
    ],
    [
      "function file off the runtime page",
      mutate('<FunctionFile resid="Taskpane.Url"/>', '<FunctionFile resid="GetStarted.LearnMoreUrl"/>'),
      /same resid/,
    ],
    [
      "a different namespace",
      mutate('id="Functions.Namespace" DefaultValue="PCD"', 'id="Functions.Namespace" DefaultValue="XYZ"'),
      /namespace must be "PCD"/,
    ],
    [
      "no shared runtime requirement",
      mutate('<Set Name="SharedRuntime" MinVersion="1.1"/>', ""),
      /SharedRuntime/,
    ],
    [
      "an unknown ribbon function",
      mutate("<FunctionName>refreshAll</FunctionName>", "<FunctionName>refreshEverything</FunctionName>"),
      /refreshEverything.*not associated/,
    ],
    [
      "a Freeze menu item whose function the commands code does not associate",
      mutate("<FunctionName>restoreSelection</FunctionName>", "<FunctionName>restoreChosen</FunctionName>"),
      /restoreChosen.*not associated/,
    ],
    [
      "no keyboard shortcuts",
      mutate('<ExtendedOverrides Url="https://localhost:3000/shortcuts.json"></ExtendedOverrides>', ""),
      /exactly one <ExtendedOverrides>/,
    ],
    [
      "ExtendedOverrides inside VersionOverrides",
      mutate(
        '  </VersionOverrides>\n  <!-- Keyboard shortcuts (assets/shortcuts.json, copied to the site\'s root by the build). -->\n  <ExtendedOverrides Url="https://localhost:3000/shortcuts.json"></ExtendedOverrides>',
        '  <ExtendedOverrides Url="https://localhost:3000/shortcuts.json"></ExtendedOverrides>\n  </VersionOverrides>',
      ),
      /must follow <\/VersionOverrides> directly/,
    ],
    [
      "shortcuts on another origin",
      mutate('Url="https://localhost:3000/shortcuts.json"', 'Url="https://cdn.example.com/shortcuts.json"'),
      /one origin/,
    ],
    [
      "shortcuts at another path",
      mutate('Url="https://localhost:3000/shortcuts.json"', 'Url="https://localhost:3000/keys.json"'),
      /must name https:\/\/localhost:3000\/shortcuts\.json/,
    ],
    [
      "a duplicate resource id",
      mutate('<bt:Image id="Icon.32x32"', '<bt:Image id="Icon.16x16"'),
      /defined more than once/,
    ],
  ])("reports %s", async (_case, brokenXml, expected) => {
    const problems = await checkRepositoryManifest(root, brokenXml);
    expect(problems.some((problem) => expected.test(problem))).toBe(true);
  });

  const shortcuts = readFileSync(path.join(root, "assets/shortcuts.json"), "utf8");
  test.each<[string, string, RegExp]>([
    ["not JSON", "{", /not JSON/],
    [
      "an action Office cannot run",
      shortcuts.replace('"ExecuteFunction"', '"ShowTaskpane"'),
      /only ExecuteFunction/,
    ],
    ["an action without a name", shortcuts.replace(/"name": "[^"]*"/, '"name": ""'), /has no name/],
    [
      "an action not in the code",
      shortcuts.replaceAll("showPcdPane", "showSomething"),
      /"showSomething" is not associated/,
    ],
    [
      "a shortcut for an undefined action",
      shortcuts.replace('"action": "showPcdPane"', '"action": "other"'),
      /"other", which is not defined/,
    ],
    ["no default key", shortcuts.replace('"default"', '"windows"'), /no default key/],
    ["Shift as the only modifier", shortcuts.replace("Ctrl+Alt+P", "Shift+P"), /needs Ctrl, Alt or Cmd/],
    ["two keys", shortcuts.replace("Ctrl+Alt+P", "Ctrl+P+Q"), /exactly one key/],
  ])("reports a shortcuts file with %s", async (_case, json, expected) => {
    const problems = await checkRepositoryManifest(root, manifest, json);
    expect(problems.some((problem) => expected.test(problem))).toBe(true);
  });
});
