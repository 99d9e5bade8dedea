import { readDiscovery } from "../../../src/host/org-sign-in/discovery";

const AUTHORIZE = "https://login.example.com/t/oauth2/v2.0/authorize";
const TOKEN = "https://login.example.com/t/oauth2/v2.0/token";

test.each<[string, unknown, ReturnType<typeof readDiscovery>]>([
  [
    "https endpoints",
    { authorization_endpoint: AUTHORIZE, token_endpoint: TOKEN, issuer: "x" },
    { authorizationEndpoint: AUTHORIZE, tokenEndpoint: TOKEN },
  ],
  [
    "a local test issuer over http on this computer",
    {
      authorization_endpoint: "http://127.0.0.1:4100/authorize",
      token_endpoint: "http://127.0.0.1:4100/token",
    },
    {
      authorizationEndpoint: "http://127.0.0.1:4100/authorize",
      tokenEndpoint: "http://127.0.0.1:4100/token",
    },
  ],
  [
    "plain http elsewhere is refused",
    { authorization_endpoint: "http://login.example.com/authorize", token_endpoint: TOKEN },
    { refused: expect.stringContaining("https") },
  ],
  ["no token endpoint", { authorization_endpoint: AUTHORIZE }, { refused: expect.stringContaining("https") }],
  [
    "not an address",
    { authorization_endpoint: "login", token_endpoint: TOKEN },
    { refused: expect.stringContaining("https") },
  ],
  ["not an object", null, { refused: "its discovery document is not a JSON object" }],
])("%s", (_case, document, expected) => {
  expect(readDiscovery(document)).toEqual(expected);
});
