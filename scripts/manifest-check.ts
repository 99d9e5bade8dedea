// Offline consistency check of manifest.xml (Microsoft's validator needs its online
// service and fails offline; `npm run validate` runs it). It checks what breaks a shared-runtime
// custom-functions add-in in practice: undefined resids, mixed origins, the runtime,
// functions page and function file not being the same page, the PCD namespace, and
// functions.json / ribbon actions that do not match the code, and the keyboard shortcuts
// file named by ExtendedOverrides (scripts/shortcuts-check.ts).
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { FUNCTION_NAMES } from "../src/headless/formula";
import { checkShortcuts } from "./shortcuts-check";

/** The functions the code invokes by name (the headless runner's table): functions.json must declare exactly these. */
export const EXPECTED_FUNCTIONS = FUNCTION_NAMES;
export const EXPECTED_NAMESPACE = "PCD";

export interface FunctionsMetadata {
  functions: Array<{ id: string; name: string }>;
}

export interface ManifestCheckInput {
  manifestXml: string;
  /** functions.json as generated from src/functions/functions.ts. */
  functionsMetadata: FunctionsMetadata;
  /** Function ids the metadata generator associates with top-level functions of the source. */
  associatedIds: readonly string[];
  /** Source of src/commands/commands.ts (ExecuteFunction names must be associated there). */
  commandsSource: string;
  /** assets/shortcuts.json, which the build serves where ExtendedOverrides points; null: missing. */
  shortcutsJson: string | null;
}

/** What the build calls assets/shortcuts.json on the add-in's site, beside the pages. */
export const SHORTCUTS_FILE = "shortcuts.json";

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

type OrderedNode = Record<string, unknown> & { ":@"?: Record<string, string> };

function toElements(nodes: unknown): XmlElement[] {
  if (!Array.isArray(nodes)) return [];
  const elements: XmlElement[] = [];
  for (const node of nodes as OrderedNode[]) {
    const name = Object.keys(node).find((key) => key !== ":@");
    if (!name || name === "#text" || name === "#comment" || name.startsWith("?")) continue;
    const rawChildren = node[name];
    const children = toElements(rawChildren);
    const text = Array.isArray(rawChildren)
      ? (rawChildren as OrderedNode[])
          .map((child) =>
            typeof child["#text"] === "string" || typeof child["#text"] === "number"
              ? String(child["#text"])
              : "",
          )
          .join("")
          .trim()
      : "";
    elements.push({ name, attributes: node[":@"] ?? {}, children, text });
  }
  return elements;
}

function localName(name: string): string {
  return name.includes(":") ? name.slice(name.indexOf(":") + 1) : name;
}

function* walk(elements: readonly XmlElement[]): Generator<XmlElement> {
  for (const element of elements) {
    yield element;
    yield* walk(element.children);
  }
}

function find(elements: readonly XmlElement[], predicate: (element: XmlElement) => boolean): XmlElement[] {
  return [...walk(elements)].filter(predicate);
}

function childNamed(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((child) => localName(child.name) === name);
}

function isUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Returns the problems found; an empty list means the manifest is consistent. */
export function checkManifest(input: ManifestCheckInput): string[] {
  const problems: string[] = [];
  const validation = XMLValidator.validate(input.manifestXml);
  if (validation !== true) {
    return [`manifest.xml is not well-formed XML: ${validation.err.msg} (line ${validation.err.line})`];
  }
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", preserveOrder: true });
  const root = toElements(parser.parse(input.manifestXml));

  // Resources: every resid used must be defined, with the right kind for its use.
  const definitions = new Map<string, { kind: string; value: string }>();
  for (const element of find(
    root,
    (e) => e.attributes.id !== undefined && e.attributes.DefaultValue !== undefined,
  )) {
    const kind = localName(element.name);
    const id = element.attributes.id!;
    if (definitions.has(id)) problems.push(`resource id "${id}" is defined more than once`);
    definitions.set(id, { kind, value: element.attributes.DefaultValue! });
  }
  for (const element of find(root, (e) => e.attributes.resid !== undefined)) {
    const resid = element.attributes.resid!;
    if (!definitions.has(resid)) {
      problems.push(`<${localName(element.name)} resid="${resid}"> refers to a resource that is not defined`);
    }
  }

  // One origin, HTTPS, for every URL the manifest names.
  const urls: string[] = [];
  for (const element of walk(root)) {
    for (const [attribute, value] of Object.entries(element.attributes)) {
      if (attribute === "DefaultValue" && isUrl(value)) urls.push(value);
    }
    if (localName(element.name) === "AppDomain" && element.text) urls.push(element.text);
    if (localName(element.name) === "ExtendedOverrides" && element.attributes.Url)
      urls.push(element.attributes.Url);
  }
  const origins = new Set(urls.map((url) => originOf(url) ?? `(unparseable URL ${url})`));
  if (origins.size !== 1)
    problems.push(`URLs must share one origin, found: ${[...origins].sort().join(", ")}`);
  for (const url of urls) {
    if (!url.startsWith("https://")) problems.push(`URL is not HTTPS: ${url}`);
  }

  // Shared runtime: requirement, one long-lived runtime, and the same page everywhere.
  const sharedRuntimeSet = find(
    root,
    (e) => localName(e.name) === "Set" && e.attributes.Name === "SharedRuntime",
  );
  if (sharedRuntimeSet.length !== 1 || sharedRuntimeSet[0]!.attributes.MinVersion !== "1.1") {
    problems.push('Requirements must include <Set Name="SharedRuntime" MinVersion="1.1"/>');
  }
  const runtimes = find(root, (e) => localName(e.name) === "Runtime");
  if (runtimes.length !== 1) problems.push(`expected exactly one <Runtime>, found ${runtimes.length}`);
  const runtime = runtimes[0];
  if (runtime && runtime.attributes.lifetime !== "long")
    problems.push('the <Runtime> must have lifetime="long"');
  const runtimeResid = runtime?.attributes.resid;

  const customFunctions = find(
    root,
    (e) => localName(e.name) === "ExtensionPoint" && e.attributes["xsi:type"] === "CustomFunctions",
  );
  if (customFunctions.length !== 1) problems.push("expected exactly one CustomFunctions extension point");
  const functionsPoint = customFunctions[0];
  const pageResid =
    functionsPoint &&
    childNamed(childNamed(functionsPoint, "Page") ?? functionsPoint, "SourceLocation")?.attributes.resid;
  const functionFile = find(root, (e) => localName(e.name) === "FunctionFile")[0]?.attributes.resid;
  if (!runtimeResid || pageResid !== runtimeResid || functionFile !== runtimeResid) {
    problems.push(
      `the Runtime (${runtimeResid ?? "missing"}), the CustomFunctions Page (${pageResid ?? "missing"}) and the FunctionFile (${functionFile ?? "missing"}) must use the same resid`,
    );
  }
  const runtimeUrl = runtimeResid ? definitions.get(runtimeResid)?.value : undefined;
  const defaultSource = find(root, (e) => localName(e.name) === "DefaultSettings")[0];
  const defaultUrl = defaultSource && childNamed(defaultSource, "SourceLocation")?.attributes.DefaultValue;
  if (runtimeUrl && defaultUrl !== runtimeUrl) {
    problems.push(
      `DefaultSettings SourceLocation (${defaultUrl ?? "missing"}) must be the runtime page ${runtimeUrl}`,
    );
  }
  for (const action of find(
    root,
    (e) => localName(e.name) === "Action" && e.attributes["xsi:type"] === "ShowTaskpane",
  )) {
    const resid = childNamed(action, "SourceLocation")?.attributes.resid;
    if (resid !== runtimeResid)
      problems.push(`a ShowTaskpane action uses ${resid ?? "no page"}, not the runtime page`);
  }

  // Namespace.
  const namespaceResid = functionsPoint && childNamed(functionsPoint, "Namespace")?.attributes.resid;
  const namespace = namespaceResid ? definitions.get(namespaceResid)?.value : undefined;
  if (namespace !== EXPECTED_NAMESPACE) {
    problems.push(
      `the custom functions namespace must be "${EXPECTED_NAMESPACE}", found "${namespace ?? "none"}"`,
    );
  }

  // Functions: exactly the five of the design, each backed by a function in the source.
  const ids = input.functionsMetadata.functions.map((fn) => fn.id).sort();
  const expected = [...EXPECTED_FUNCTIONS].sort();
  if (ids.join(",") !== expected.join(",")) {
    problems.push(`functions.json declares [${ids.join(", ")}], expected [${expected.join(", ")}]`);
  }
  for (const fn of input.functionsMetadata.functions) {
    if (fn.name !== fn.id) problems.push(`function ${fn.id} is named ${fn.name} in Excel`);
    if (!input.associatedIds.includes(fn.id))
      problems.push(`function ${fn.id} has no implementation in functions.ts`);
  }

  // Keyboard shortcuts: ExtendedOverrides right after VersionOverrides (a child of
  // OfficeApp, not inside VersionOverrides), pointing at the shortcuts file the build serves.
  const officeApp = root.find((element) => localName(element.name) === "OfficeApp");
  const appChildren = officeApp?.children.map((child) => localName(child.name)) ?? [];
  const overrides = find(root, (e) => localName(e.name) === "ExtendedOverrides");
  if (overrides.length !== 1) {
    problems.push(
      `expected exactly one <ExtendedOverrides> (the keyboard shortcuts), found ${overrides.length}`,
    );
  } else {
    const at = appChildren.indexOf("ExtendedOverrides");
    if (at < 0 || appChildren[at - 1] !== "VersionOverrides") {
      problems.push(
        "<ExtendedOverrides> must follow </VersionOverrides> directly, as a child of <OfficeApp>",
      );
    }
    // Beside the runtime page (the build copies assets/shortcuts.json to the site's root).
    const url = overrides[0]!.attributes.Url ?? "";
    const expected = runtimeUrl ? new URL(SHORTCUTS_FILE, runtimeUrl).href : SHORTCUTS_FILE;
    if (url !== expected) {
      problems.push(`<ExtendedOverrides Url="${url}"> must name ${expected}, beside the runtime page`);
    }
    if (input.shortcutsJson === null) problems.push("assets/shortcuts.json is missing");
    else {
      problems.push(
        ...checkShortcuts(input.shortcutsJson, (id) => input.commandsSource.includes(`associate("${id}"`)),
      );
    }
  }

  // Ribbon: every ExecuteFunction is associated in the commands code.
  for (const element of find(root, (e) => localName(e.name) === "FunctionName")) {
    const name = element.text;
    if (!input.commandsSource.includes(`associate("${name}"`)) {
      problems.push(`ExecuteFunction "${name}" is not associated in src/commands/commands.ts`);
    }
  }
  return problems;
}
