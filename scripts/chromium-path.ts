// Where the browser tests (and npm run screenshots) find a Chromium-family browser to drive
// with playwright-core: PCD_CHROMIUM when set, else the platform's usual install locations.
// Nothing here downloads a browser: one that is not installed is named, with what to do.
import path from "node:path";

export interface ChromiumSearch {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  exists: (file: string) => boolean;
}

export type ChromiumFound = { found: true; path: string } | { found: false; message: string };

/** The variable that names the browser's executable and overrides the usual locations. */
export const CHROMIUM_VARIABLE = "PCD_CHROMIUM";

// Chromium's headless shell first: a page there is a page, where the full browser's headless mode
// also builds a window's toolbar and tab strip for it. The browser lane measured 251 against 291
// CPU-seconds (130 against 150 s) with the same Chromium release from Debian.
const LINUX = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/usr/bin/microsoft-edge",
];

const MAC_APPS = [
  "Google Chrome.app/Contents/MacOS/Google Chrome",
  "Chromium.app/Contents/MacOS/Chromium",
  "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
];

const WINDOWS_APPS = [
  "Google\\Chrome\\Application\\chrome.exe",
  "Chromium\\Application\\chrome.exe",
  "Microsoft\\Edge\\Application\\msedge.exe",
];

const INSTALL_HINT: Partial<Record<NodeJS.Platform, string>> = {
  linux: "install Chromium (Debian: apt-get install chromium-headless-shell, or chromium)",
  darwin: "install Google Chrome or Chromium into /Applications",
  win32: "install Google Chrome or Microsoft Edge",
};

/** The usual install locations on a platform, most likely first. */
export function chromiumCandidates(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  if (platform === "darwin") {
    const folders = ["/Applications", ...(env.HOME ? [path.posix.join(env.HOME, "Applications")] : [])];
    return MAC_APPS.flatMap((app) => folders.map((folder) => path.posix.join(folder, app)));
  }
  if (platform === "win32") {
    // Per-machine installs, then Chrome's per-user install under the local app data folder.
    const folders = [env.ProgramFiles, env["ProgramFiles(x86)"], env.LOCALAPPDATA].filter(
      (folder): folder is string => Boolean(folder),
    );
    return WINDOWS_APPS.flatMap((app) => folders.map((folder) => path.win32.join(folder, app)));
  }
  return LINUX;
}

export function findChromium({ platform, env, exists }: ChromiumSearch): ChromiumFound {
  const chosen = env[CHROMIUM_VARIABLE];
  if (chosen) {
    return exists(chosen)
      ? { found: true, path: chosen }
      : { found: false, message: `${CHROMIUM_VARIABLE} names ${chosen}, which does not exist.` };
  }
  const candidates = chromiumCandidates(platform, env);
  const installed = candidates.find((candidate) => exists(candidate));
  if (installed) return { found: true, path: installed };
  const hint = INSTALL_HINT[platform] ?? "install Chromium or Google Chrome";
  return {
    found: false,
    message:
      `Browser tests need Chromium, Google Chrome or Microsoft Edge and found none` +
      (candidates.length > 0 ? ` (looked at ${candidates.join(", ")})` : "") +
      `: ${hint}, or set ${CHROMIUM_VARIABLE} to the browser's executable.`,
  };
}
