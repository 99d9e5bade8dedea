// Before a call: can a token be had? A signed-in session answers at once; otherwise
// auth.token() says why not (its not_signed_in error), which a cell or refresh-all then
// shows instead of calling. Undefined when a token can be had.
import type { AuthPort } from "./engine-parts";
import { type PcdError, toPcdError } from "./errors";

export async function signInError(auth: Pick<AuthPort, "status" | "token">): Promise<PcdError | undefined> {
  if (auth.status().signedIn) return undefined;
  try {
    await auth.token();
    return undefined;
  } catch (error) {
    return toPcdError(error);
  }
}
