// The issuer's documents follow redirects only within the origin they were asked of.
import { CrossOriginRedirect, fetchWithinOrigin } from "../../../src/gateway/oidc/fetch-within-origin";

const START = "https://login.example/tenant/v2.0/.well-known/openid-configuration";

/** A fetch that redirects along `hops` (address -> Location) and answers 200 anywhere else. */
function redirecting(hops: Record<string, string>) {
  const asked: string[] = [];
  const fetchFunction = async (input: string, init?: RequestInit): Promise<Response> => {
    asked.push(input);
    expect(init?.redirect).toBe("manual");
    const location = hops[input];
    return location === undefined
      ? new Response(JSON.stringify({ at: input }), { status: 200 })
      : new Response(null, { status: 302, headers: { location } });
  };
  return { fetchFunction, asked };
}

test.each<{ case: string; hops: Record<string, string>; answeredAt: string | null; error: string | null }>([
  { case: "no redirect", hops: {}, answeredAt: START, error: null },
  {
    case: "a redirect within the origin, relative",
    hops: { [START]: "/other/.well-known/openid-configuration" },
    answeredAt: "https://login.example/other/.well-known/openid-configuration",
    error: null,
  },
  {
    case: "a redirect to another host",
    hops: { [START]: "https://attacker.example/keys" },
    answeredAt: null,
    error: "redirects to another origin (https://attacker.example), not followed",
  },
  {
    case: "a redirect to the same host over http",
    hops: { [START]: "http://login.example/tenant/v2.0/.well-known/openid-configuration" },
    answeredAt: null,
    error: "redirects to another origin (http://login.example), not followed",
  },
  {
    case: "a loop within the origin",
    hops: { [START]: "/a", "https://login.example/a": "/b", "https://login.example/b": START },
    answeredAt: null,
    error: "redirects more than 3 times",
  },
])("$case", async ({ hops, answeredAt, error }) => {
  const { fetchFunction, asked } = redirecting(hops);
  const result = fetchWithinOrigin(fetchFunction, START);
  if (error === null) {
    expect(await (await result).json()).toEqual({ at: answeredAt });
  } else {
    await expect(result).rejects.toThrow(CrossOriginRedirect);
    await expect(result).rejects.toThrow(error);
    expect(asked.every((address) => address.startsWith("https://login.example/"))).toBe(true);
  }
});
