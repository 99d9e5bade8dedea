// The claims of a JSON Web Token's payload, read without checking the signature: the
// service checks its own tokens; the engine only reads when one expires (exp, iat) to
// renew it in time. jose's decodeJwt reads them. jose loads with the first token (a chunk
// of its own in the add-in): a token only arrives after a network call, so Excel does not
// load the reader with the functions runtime at start.

let jose: Promise<typeof import("jose")> | undefined;

/**
 * The payload's claims of a compact JWT (three dot-separated parts), or undefined for a
 * token that is not a readable JWT. Rejects when jose cannot load; the next call tries again.
 */
export async function jwtClaims(token: string): Promise<Record<string, unknown> | undefined> {
  jose ??= import(/* webpackChunkName: "jwt-claims", webpackExports: ["decodeJwt"] */ "jose").catch(
    (error: unknown) => {
      jose = undefined;
      throw error;
    },
  );
  const { decodeJwt } = await jose;
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}
