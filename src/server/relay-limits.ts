// The limits of npm run serve and its relay. A relay that waits without end, takes any
// body or keeps a half-sent request open is easy to hold: these bound each request and
// connection. Tests pass small values; production uses the defaults.
export interface ServerLimits {
  /** Longest request body relayed (the add-in sends a few hundred bytes; a sign-in form at most). */
  bodyBytes: number;
  /** How long the relay waits for the service's headers, and between chunks of its body. */
  upstreamMs: number;
  /** How long a client may take to send its request headers. */
  headersMs: number;
  /** How long a client may take to send its whole request (headers and body). */
  requestMs: number;
  /** How often Node looks for connections past those two limits. */
  checkIntervalMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  bodyBytes: 64 * 1024,
  // Above the service's slowest answer (a large Series Values export) with room to spare.
  upstreamMs: 150_000,
  headersMs: 10_000,
  requestMs: 30_000,
  checkIntervalMs: 1_000,
};
