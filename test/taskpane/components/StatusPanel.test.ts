// The Status tab as the pane renders it: signed in through a team gateway, it says that data
// comes through the organisation's gateway (the service address) and which member is signed in.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { AuthStatus, Engine, EngineSettings } from "../../../src/core/engine-api";
import { serviceState } from "../../../src/core/schedule";
import { StatusPanel } from "../../../src/taskpane/components/StatusPanel";
import { PaneServicesProvider, type PaneServices } from "../../../src/taskpane/pane-services";
import { endOrgSession, startOrgSession } from "../../../src/host/org-sign-in/org-session";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const GATEWAY = "https://pcd-gateway.team.example";

const signedIn = (gateway: AuthStatus["gateway"]): AuthStatus => ({
  signedIn: true,
  username: "ana@team.example",
  environment: "live",
  tokenExpiresAt: NOW + 3_600_000,
  gateway,
});

/** The engine as far as the Status tab reads it. */
function servicesFor(auth: AuthStatus, baseUrl: string): PaneServices {
  const engine = {
    authStatus: () => auth,
    getSettings: () => ({ baseUrl }) as EngineSettings,
    serviceState: () => serviceState(NOW, 3),
    cacheInfo: () => new Promise(() => undefined),
    onMetaChange: () => () => undefined,
  } as unknown as Engine;
  const refresh = { current: () => ({ status: "idle" }), subscribe: () => () => undefined };
  return { engine, refresh } as unknown as PaneServices;
}

const text = (auth: AuthStatus, baseUrl: string): string =>
  renderToStaticMarkup(
    createElement(PaneServicesProvider, {
      services: servicesFor(auth, baseUrl),
      children: createElement(StatusPanel),
    }),
  )
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .replace(/ ([.,])/g, "$1");

test.each<[string, AuthStatus, string, string[], string[]]>([
  [
    "through a gateway: its address and the member",
    signedIn({ member: "ana@team.example" }),
    GATEWAY,
    [
      "Gateway",
      `Data comes through your organisation's gateway at ${GATEWAY}.`,
      "Signed in to it as member ana@team.example.",
    ],
    ["through your organisation's account"],
  ],
  [
    "the member the token names, whatever the username",
    { ...signedIn({ member: "ana.lopez@team.example" }), username: "ana" },
    GATEWAY,
    ["Signed in to it as member ana.lopez@team.example."],
    [],
  ],
  ["the service itself: no gateway", signedIn(null), "https://api.example.com", [], ["gateway", "member"]],
  [
    "signed out: no gateway",
    { ...signedIn(null), signedIn: false, username: null, tokenExpiresAt: null },
    GATEWAY,
    [],
    ["gateway", "member"],
  ],
])("%s", (_name, auth, baseUrl, shown, absent) => {
  const rendered = text(auth, baseUrl);
  for (const line of shown) expect(rendered).toContain(line);
  for (const word of absent) expect(rendered.toLowerCase()).not.toContain(word.toLowerCase());
  // The service's section is there either way.
  expect(rendered).toContain("Service");
});

test("signed in through the organisation's account: the member its token names, and how", async () => {
  const auth = signedIn({ member: "ana@team.example" });
  await startOrgSession(
    { signIn: () => Promise.resolve(auth), onAuthChange: () => () => undefined },
    {
      account: "ana@team.example",
      token: () => Promise.reject(new Error("not asked")),
      forget: () => undefined,
    },
  );
  try {
    expect(text(auth, GATEWAY)).toContain(
      "Signed in to it as member ana@team.example through your organisation's account.",
    );
  } finally {
    endOrgSession();
  }
});
