// The sign-in panel as the pane renders it: "Sign in with your organisation" comes first
// only in a build with organisation sign-in (PCD_OIDC_*); the username and password form
// stays below it, and is all there is without those settings.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { AuthStatus, Engine, EngineSettings } from "../../../src/core/engine-api";
import { AccountStatus } from "../../../src/taskpane/components/AccountStatus";
import { SignInPanel } from "../../../src/taskpane/components/SignInPanel";
import { PaneServicesProvider, type PaneServices } from "../../../src/taskpane/pane-services";
import { noteOrgSignInEnded } from "../../../src/host/org-sign-in/ended-notice";
import type { OrgSignInSettings } from "../../../src/host/org-sign-in/settings";
import { endOrgSession, startOrgSession } from "../../../src/host/org-sign-in/org-session";

const ORG: OrgSignInSettings = {
  issuer: "https://login.microsoftonline.com/tenant-1/v2.0",
  clientId: "client-1",
  scope: "api://gateway/access_as_user",
};

function services(): PaneServices {
  const engine = {
    getSettings: () =>
      ({
        environment: "live",
        baseUrl: "https://gw.example",
        authUrl: "https://gw.example",
      }) as EngineSettings,
    signOut: () => Promise.resolve(),
  } as unknown as Engine;
  return { engine } as unknown as PaneServices;
}

const render = (child: ReturnType<typeof createElement>): string =>
  renderToStaticMarkup(createElement(PaneServicesProvider, { services: services(), children: child }));

const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .replace(/ ([.,])/g, "$1");

afterEach(() => {
  noteOrgSignInEnded(null);
  endOrgSession();
});

test.each<[string, OrgSignInSettings | null | undefined, boolean]>([
  ["with the build settings: offered", ORG, true],
  ["without them: not offered", null, false],
  ["this build's settings (none under Jest): not offered", undefined, false],
])("Sign in with your organisation %s", (_case, orgSignIn, offered) => {
  const html = render(createElement(SignInPanel, orgSignIn === undefined ? {} : { orgSignIn }));
  const rendered = text(html);
  expect(html.includes('data-testid="org-sign-in"')).toBe(offered);
  expect(rendered.includes("Sign in with your organisation")).toBe(offered);
  // The username and password form is there either way, after the organisation's button.
  expect(html).toContain('name="username"');
  expect(html).toContain('name="password"');
  if (offered)
    expect(html.indexOf('data-testid="org-sign-in"')).toBeLessThan(html.indexOf('name="username"'));
});

test("a session that ended on its own says so above the sign-in", () => {
  noteOrgSignInEnded("Your organisation sign-in has ended: sign in again.");
  const rendered = text(render(createElement(SignInPanel, { orgSignIn: ORG })));
  expect(rendered).toContain("Your organisation sign-in has ended: sign in again.");
});

const SIGNED_IN: AuthStatus = {
  signedIn: true,
  username: "ana@example.com",
  environment: "live",
  tokenExpiresAt: null,
  gateway: { member: "ana@example.com" },
};

test.each<[string, boolean, boolean]>([
  ["through the organisation's account", true, true],
  ["with a password", false, false],
])("the account signed in %s", async (_case, organisation, says) => {
  if (organisation)
    await startOrgSession(
      { signIn: () => Promise.resolve(SIGNED_IN), onAuthChange: () => () => undefined },
      {
        account: "ana@example.com",
        token: () => Promise.reject(new Error("not asked")),
        forget: () => undefined,
      },
    );
  const rendered = text(render(createElement(AccountStatus, { status: SIGNED_IN })));
  expect(rendered).toContain("Signed in as ana@example.com");
  expect(rendered.includes("through your organisation's account")).toBe(says);
});
