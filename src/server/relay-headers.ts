// Which headers cross the relay. Towards the service: nothing that speaks for the relay or
// its origin (cookies, proxy credentials, forwarding claims a client could forge). Back to
// the add-in's origin: nothing that would set state or permissions there (cookies, CORS
// grants) or say what runs upstream; and the body is data, never a page: it is labelled
// JSON, and the sandbox policy keeps a browser from running anything in it even when
// opened directly.
import type { IncomingHttpHeaders } from "node:http";

const REQUEST_DROPPED =
  /^(cookie|proxy-authorization|forwarded|x-forwarded-.*|x-real-ip|transfer-encoding)$/i;
const RESPONSE_DROPPED =
  /^(set-cookie|set-cookie2|server|x-powered-by|access-control-.*|timing-allow-origin|content-type|content-security-policy|content-security-policy-report-only|x-content-type-options)$/i;

export const RELAYED_CONTENT_TYPE = "application/json; charset=utf-8";
export const RELAYED_POLICY = "sandbox";

export function requestHeadersForService(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!REQUEST_DROPPED.test(name)) kept[name] = value;
  }
  return kept;
}

export function responseHeadersForAddin(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!RESPONSE_DROPPED.test(name) && value !== undefined) kept[name] = value;
  }
  return { ...kept, ...RELAYED_HEADERS };
}

/** Set on every relayed answer, the relay's own refusals included. */
export const RELAYED_HEADERS: Readonly<Record<string, string>> = {
  "content-type": RELAYED_CONTENT_TYPE,
  "content-security-policy": RELAYED_POLICY,
  "x-content-type-options": "nosniff",
};
