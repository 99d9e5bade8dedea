// Sign-in names: compared without case or surrounding spaces, optionally held to one domain.
import { inDomain, isEmail, normaliseEmail } from "../../../src/gateway/members/member-email";

test.each([
  { given: " Ann@Example.COM ", normalised: "ann@example.com", email: true },
  { given: "bob@example.com", normalised: "bob@example.com", email: true },
  { given: "no-at-sign", normalised: "no-at-sign", email: false },
  { given: "two@at@signs", normalised: "two@at@signs", email: false },
  { given: "in side@example.com", normalised: "in side@example.com", email: false },
  { given: "@example.com", normalised: "@example.com", email: false },
  // An API key's member name is key:NAME: no member's name may look like one.
  { given: "Key:Nightly@example.com", normalised: "key:nightly@example.com", email: false },
])("$given: normalised $normalised, an email: $email", ({ given, normalised, email }) => {
  expect(normaliseEmail(given)).toBe(normalised);
  expect(isEmail(normaliseEmail(given))).toBe(email);
});

test.each([
  { email: "ann@example.com", domain: null, inside: true },
  { email: "ann@example.com", domain: "example.com", inside: true },
  { email: "ann@example.com", domain: "Example.COM", inside: true },
  { email: "ann@example.com", domain: "@example.com", inside: true },
  { email: "ann@sub.example.com", domain: "example.com", inside: false },
  { email: "ann@notexample.com", domain: "example.com", inside: false },
  { email: "ann@example.com.evil.test", domain: "example.com", inside: false },
])("$email in domain $domain: $inside", ({ email, domain, inside }) => {
  expect(inDomain(email, domain)).toBe(inside);
});
