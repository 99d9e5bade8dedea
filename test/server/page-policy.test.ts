import { policyOfPage } from "../../src/server/page-policy";

const POLICY = "default-src 'self'; connect-src 'self' https:";

test.each([
  ["as written in the template", `<meta\n  http-equiv="Content-Security-Policy"\n  content="${POLICY}"\n/>`],
  [
    "minified by a production build",
    `<meta charset=UTF-8><meta http-equiv=Content-Security-Policy content="${POLICY}">`,
  ],
  ["content first", `<meta content="${POLICY}" http-equiv="content-security-policy">`],
  ["single quotes", `<meta http-equiv='Content-Security-Policy' content="${POLICY}">`],
])("reads the policy %s", (_case, head) => {
  expect(
    policyOfPage(`<html><head><meta name=viewport content="width=device-width">${head}</head></html>`),
  ).toBe(POLICY);
});

test.each([
  ["no policy", `<meta name=viewport content="width=device-width">`],
  ["a report-only policy", `<meta http-equiv=Content-Security-Policy-Report-Only content="${POLICY}">`],
])("%s: none", (_case, head) => {
  expect(policyOfPage(`<html><head>${head}</head></html>`)).toBeNull();
});
