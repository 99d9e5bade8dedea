// How the browser tests find a browser, one row per platform and install: PCD_CHROMIUM first,
// then the usual locations in order; none found names what to install or set.
import { findChromium, type ChromiumFound } from "../../scripts/chromium-path";

const WINDOWS_ENV = {
  ProgramFiles: "C:\\Program Files",
  "ProgramFiles(x86)": "C:\\Program Files (x86)",
  LOCALAPPDATA: "C:\\Users\\ana\\AppData\\Local",
};

interface Row {
  name: string;
  platform: NodeJS.Platform;
  env: Record<string, string>;
  installed: string[];
  expected: ChromiumFound | { found: false; message: RegExp };
}

const rows: Row[] = [
  {
    name: "Debian's headless shell before its full browser",
    platform: "linux",
    env: {},
    installed: ["/usr/bin/chromium", "/usr/bin/chromium-headless-shell"],
    expected: { found: true, path: "/usr/bin/chromium-headless-shell" },
  },
  {
    name: "Debian's chromium",
    platform: "linux",
    env: {},
    installed: ["/usr/bin/chromium", "/usr/bin/google-chrome"],
    expected: { found: true, path: "/usr/bin/chromium" },
  },
  {
    name: "Ubuntu's chromium-browser",
    platform: "linux",
    env: {},
    installed: ["/usr/bin/chromium-browser"],
    expected: { found: true, path: "/usr/bin/chromium-browser" },
  },
  {
    name: "Google Chrome on Linux",
    platform: "linux",
    env: {},
    installed: ["/usr/bin/google-chrome"],
    expected: { found: true, path: "/usr/bin/google-chrome" },
  },
  {
    name: "the snap",
    platform: "linux",
    env: {},
    installed: ["/snap/bin/chromium"],
    expected: { found: true, path: "/snap/bin/chromium" },
  },
  {
    name: "PCD_CHROMIUM wins over an installed browser",
    platform: "linux",
    env: { PCD_CHROMIUM: "/opt/chrome/chrome" },
    installed: ["/usr/bin/chromium", "/opt/chrome/chrome"],
    expected: { found: true, path: "/opt/chrome/chrome" },
  },
  {
    name: "PCD_CHROMIUM naming a missing file is told, not passed over",
    platform: "linux",
    env: { PCD_CHROMIUM: "/opt/chrome/chrome" },
    installed: ["/usr/bin/chromium"],
    expected: { found: false, message: /^PCD_CHROMIUM names \/opt\/chrome\/chrome, which does not exist\.$/ },
  },
  {
    name: "nothing on Linux: apt-get or PCD_CHROMIUM",
    platform: "linux",
    env: {},
    installed: [],
    expected: {
      found: false,
      message:
        /looked at \/usr\/bin\/chromium-headless-shell, \/usr\/bin\/chromium, .*\/snap\/bin\/chromium.*apt-get install chromium-headless-shell, or chromium\), or set PCD_CHROMIUM/,
    },
  },
  {
    name: "Google Chrome on macOS",
    platform: "darwin",
    env: { HOME: "/Users/ana" },
    installed: ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"],
    expected: { found: true, path: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" },
  },
  {
    name: "Chromium in the user's Applications on macOS",
    platform: "darwin",
    env: { HOME: "/Users/ana" },
    installed: ["/Users/ana/Applications/Chromium.app/Contents/MacOS/Chromium"],
    expected: { found: true, path: "/Users/ana/Applications/Chromium.app/Contents/MacOS/Chromium" },
  },
  {
    name: "a Linux path means nothing on macOS",
    platform: "darwin",
    env: {},
    installed: ["/usr/bin/chromium"],
    expected: { found: false, message: /install Google Chrome or Chromium into \/Applications/ },
  },
  {
    name: "Chrome on Windows",
    platform: "win32",
    env: WINDOWS_ENV,
    installed: ["C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe"],
    expected: { found: true, path: "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe" },
  },
  {
    name: "32-bit Chrome on Windows",
    platform: "win32",
    env: WINDOWS_ENV,
    installed: ["C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe"],
    expected: { found: true, path: "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe" },
  },
  {
    name: "Chrome installed for one user on Windows",
    platform: "win32",
    env: WINDOWS_ENV,
    installed: ["C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe"],
    expected: {
      found: true,
      path: "C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe",
    },
  },
  {
    name: "Edge when Windows has no Chrome",
    platform: "win32",
    env: WINDOWS_ENV,
    installed: ["C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe"],
    expected: { found: true, path: "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe" },
  },
  {
    name: "Chrome before Edge on Windows",
    platform: "win32",
    env: WINDOWS_ENV,
    installed: [
      "C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe",
      "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
    ],
    expected: { found: true, path: "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe" },
  },
  {
    name: "nothing on Windows: Chrome, Edge or PCD_CHROMIUM",
    platform: "win32",
    env: WINDOWS_ENV,
    installed: [],
    expected: {
      found: false,
      message: /msedge\.exe.*install Google Chrome or Microsoft Edge, or set PCD_CHROMIUM/,
    },
  },
];

test.each(rows)("$name", ({ platform, env, installed, expected }) => {
  const result = findChromium({ platform, env, exists: (file) => installed.includes(file) });
  if (expected.found) {
    expect(result).toEqual(expected);
  } else {
    expect(result.found).toBe(false);
    expect(result.found ? "" : result.message).toMatch(expected.message);
  }
});
