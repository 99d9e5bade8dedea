// The gateway's one connection to the service: it signs in with the Developer account, keeps
// one token for every member (renewed before it expires and once after a 401), and calls the
// service's operations within its 10 requests per second per operation.
import { decodeJwt } from "jose";
import { OPERATION_LABELS } from "../../core/http/classify";
import { tokenExpiry } from "../../core/token-expiry";
import { renewMarginFor } from "../../core/token-renewal";
import type { GatewayOperation } from "../gateway-operation";
import { withoutCredentials, type UpstreamCredentials } from "./upstream-credentials";
import { downtimeIn, refusalInOwnWords, retryAfterNow, safeRetryAfter, standsFor } from "./upstream-refusal";
import { UpstreamDowntime } from "./upstream-downtime";

export interface UpstreamSettings {
  /** The service address, e.g. https://service.example/api (product paths are appended). */
  base: string;
  /** The token operation's address, without /access_token/v1. */
  auth: string;
  credentials: UpstreamCredentials;
  fetch: typeof fetch;
  now: () => number;
  /**
   * How long one call may take (CALL_TIMEOUT_MS when absent); a History call waits at least
   * HISTORY_TIMEOUT_MS.
   */
  timeoutMs?: number;
  /** A signal that aborts a call after `ms` (AbortSignal.timeout outside tests). */
  timeoutSignal?: (ms: number) => AbortSignal;
  /** Requests per second per operation (the service's limit). */
  ratePerSecond?: number;
  /** Waits before a rate-limited call is sent again (setTimeout outside tests). */
  sleep?: (ms: number) => Promise<void>;
  /** A call is sent to the service now (not one held back for downtime): the metrics count it. */
  sending?: (operation: GatewayOperation, path: string) => void;
}

/** What the upstream answered, as the gateway relays it. */
export interface UpstreamAnswer {
  status: number;
  /**
   * A 2xx answer's body text as the service sent it (its data: see Upstream.answer); a refusal's
   * is the gateway's own {"message"} (upstream-refusal.ts).
   */
  body: string;
  contentType: string | null;
  retryAfter: string | null;
  /** Not sent: the service said it is down at this time, and calls are held (upstream-downtime.ts). */
  heldSince?: number;
  /** What a refused call was refused for, where the purchase queue sends its codes again in smaller calls. */
  refusal?: Refusal;
  /** A refusal of the service's in the gateway's words: the status the service answered. */
  serviceStatus?: number;
  /**
   * When the call this answer came to was sent (the gateway's clock): the earliest moment the
   * answer can describe. Absent for an answer given without a call.
   */
  sentAt?: number;
}

export type Refusal =
  /** A quota; `dataset`: the call's own dataset the service named (null: none, or another). */
  | { kind: "quota"; dataset: string | null }
  /** A 4xx of no other kind (the engine's bad request): among them, a call that mixes data types. */
  | { kind: "bad request" };

/** The service's own examples wait about 130 s for data calls (docs/service.md §6.9). */
export const CALL_TIMEOUT_MS = 130_000;
/**
 * History for many codes can be slower (docs/service.md §6.9): members' engines wait 300 s for
 * it, and a gateway that gave up sooner would answer them "no answer" for a call the service
 * was still working on, and may charge.
 */
export const HISTORY_TIMEOUT_MS = 300_000;

const TOKEN_LIFETIME_MS = 2 * 60 * 60 * 1000;
/** The window of ratePerSecond turns: the service's second and a margin for a call's way out. */
const TURN_INTERVAL_MS = 1150;
/** A call the service refuses for its rate is sent at most this many times in all. */
const RATE_LIMITED_ATTEMPTS = 3;

/** Retry-After in seconds, within 0.1 to 10 s (1 s when absent or unreadable). */
function retryDelayMs(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  if (retryAfter === null || !Number.isFinite(seconds)) return 1000;
  return Math.min(10_000, Math.max(100, seconds * 1000));
}
/**
 * Renew this long before the token's expiry, so no call carries an expiring token (a quarter of
 * a shorter token's life: renewMarginFor).
 */
const RENEW_MARGIN_MS = 5 * 60 * 1000;
/**
 * How long a sign-in the service refused (a 4xx: the account, or the token service's rate)
 * stands before the gateway asks again: members' requests meanwhile get the same refusal.
 * Asked at every request, a wrong or changed password would reach the service as fast as members
 * call the gateway, as a password guesser's would, and a service may lock the account for it.
 */
export const SIGN_IN_REFUSAL_STANDS_MS = 60_000;

interface HeldToken {
  value: string;
  /** On the gateway's clock, by the engine's rules (core/token-expiry.ts). */
  expiresAt: number;
  /** The gateway's clock when the token arrived. */
  issuedAt: number;
}

export class Upstream {
  private token: HeldToken | null = null;
  private renewal: Promise<HeldToken> | null = null;
  /** The service's last refusal of the gateway's sign-in (4xx) and when it came, while it stands. */
  private signInRefused: { answer: UpstreamAnswer; at: number } | null = null;
  private readonly turns = new Map<GatewayOperation, Promise<() => Promise<void>>>();
  /** The service said it is down: calls meanwhile get that answer unsent (upstream-downtime.ts). */
  private readonly downtime: UpstreamDowntime;
  /** The sandbox is a service of its own: its downtime holds (and ends) only its calls. */
  private readonly sandboxDowntime: UpstreamDowntime;

  constructor(private readonly settings: UpstreamSettings) {
    this.downtime = new UpstreamDowntime(settings.now);
    this.sandboxDowntime = new UpstreamDowntime(settings.now);
  }

  private downtimeOf(path: string): UpstreamDowntime {
    return path.includes("/sandbox/") ? this.sandboxDowntime : this.downtime;
  }

  /**
   * Resolves when a call of the operation may start: at most ratePerSecond (10) calls start in
   * any second, counted strictly (a sliding window, as the service counts). A caller that picks
   * what to send only once its turn has come (the purchase queue) packs every code that
   * arrived while it waited.
   */
  async turn(operation: GatewayOperation): Promise<void> {
    let next = this.turns.get(operation);
    if (next === undefined) {
      // p-throttle is published as an ES module only; the built server is CommonJS.
      next = import("p-throttle").then(({ default: pThrottle }) => {
        // A call leaves a few milliseconds after its turn (the store is read first, under the
        // keys' locks), so turns are spaced a little wider than the service's own second.
        const throttle = pThrottle({
          limit: this.settings.ratePerSecond ?? 10,
          interval: TURN_INTERVAL_MS,
          strict: true,
        });
        const turnCame = throttle(() => undefined);
        return async () => void (await turnCame());
      });
      this.turns.set(operation, next);
    }
    const wait = await next;
    await wait();
  }

  /**
   * The answer a call of the operation would get unsent now, while the service's last answer
   * said it is down; null when a call would be sent. Lets a purchase fail at once instead of
   * waiting to be packed with others first.
   */
  heldAnswer(operation: GatewayOperation): UpstreamAnswer | null {
    return this.downtime.held(operation);
  }

  /**
   * GET <base><path> with the gateway's token, in the operation's turn (`turnTaken`: the caller
   * already waited for it). A refused token is renewed once and the call repeated once. While
   * the service's last answer said it is down, and for a minute after it, nothing is sent.
   */
  async get(
    path: string,
    operation: GatewayOperation,
    options: { turnTaken?: boolean; datasets?: readonly string[] } = {},
  ): Promise<UpstreamAnswer> {
    let renewed = false;
    let turnTaken = options.turnTaken === true;
    const downtime = this.downtimeOf(path);
    for (let attempt = 1; ; attempt += 1) {
      // Held calls wait for no turn and renew no token; one that waited is looked at again below.
      const early = downtime.held(operation);
      if (early !== null) return early;
      if (!turnTaken) await this.turn(operation);
      turnTaken = false;
      const token = await this.currentToken();
      const turn = downtime.beforeSend(operation);
      if ("held" in turn) return turn.held;
      let answer: UpstreamAnswer;
      try {
        this.settings.sending?.(operation, path);
        // Taken before the call leaves: what the answer describes is the service as it was at
        // some moment after this one (a catalog read sent before a release is out is last month's).
        const sentAt = this.settings.now();
        answer = { ...(await this.send(path, token, operation)), sentAt };
      } catch (error) {
        downtime.unanswered(turn.ticket);
        if (error instanceof UpstreamCutOff) throw error;
        throw isTimeout(error) ? new UpstreamTimeout(operation, this.timeoutMs(operation)) : error;
      }
      downtime.answered(answer, turn.ticket);
      if (answer.status === 401 && !renewed) {
        renewed = true;
        // Only the token this call carried is dropped: calls sent together with it are refused
        // one after another, and a later refusal must neither throw away the token a renewal
        // already brought nor start another sign-in (the renewal under way is shared).
        if (this.token?.value === token) this.token = null;
        continue;
      }
      // Several instances share the service's rate limit: a call it refused for the rate was
      // not charged, so it is sent again after the wait the service asks for.
      if (answer.status !== 429 || attempt >= RATE_LIMITED_ATTEMPTS) {
        return answer.status >= 200 && answer.status <= 299
          ? answer
          : refusalInOwnWords(answer, operation, options.datasets);
      }
      await this.wait(retryDelayMs(answer.retryAfter));
    }
  }

  private wait(ms: number): Promise<void> {
    return (this.settings.sleep ?? ((delay) => new Promise((resolve) => setTimeout(resolve, delay))))(ms);
  }

  private async send(path: string, token: string, operation: GatewayOperation): Promise<UpstreamAnswer> {
    let response: Response;
    try {
      response = await this.settings.fetch(`${this.settings.base}${path}`, {
        headers: { authorization: `Bearer ${token}`, accept: "application/json" },
        // The token must never follow a redirect to another origin.
        redirect: "error",
        signal: this.timeout(operation),
      });
    } catch (error) {
      // The call's own timeout is told by get(); a connection broken once the call was sent, here.
      throw !isTimeout(error) && brokeAfterSending(error) ? new UpstreamCutOff(operation, error) : error;
    }
    try {
      return await this.answer(response);
    } catch (error) {
      // The service answered (and may have charged): its answer broke off while it was read.
      throw isTimeout(error) ? error : new UpstreamCutOff(operation, error);
    }
  }

  /** Aborts a call of the operation (or the sign-in) that has had no whole answer in its time. */
  private timeout(operation: GatewayOperation | "sign-in"): AbortSignal {
    const ms = this.timeoutMs(operation);
    return (this.settings.timeoutSignal ?? ((after) => AbortSignal.timeout(after)))(ms);
  }

  private timeoutMs(operation: GatewayOperation | "sign-in"): number {
    const callMs = this.settings.timeoutMs ?? CALL_TIMEOUT_MS;
    return operation === "series_hist" ? Math.max(callMs, HISTORY_TIMEOUT_MS) : callMs;
  }

  /**
   * The service's answer as read. Only a 2xx body reaches members, and as the service sent it; a
   * refusal's text has the account's name and password replaced, is read for its kind and told
   * in the gateway's words (refusalInOwnWords, signInRefusal). A header that repeats the account
   * is not kept (members get the gateway's Content-Type and no Retry-After instead).
   *
   * A 2xx body is left as it is: it is the service's data (series records with their dates and
   * values, the allowance's counts, or the gateway's own token), kept and served to the whole
   * team, and a password that is also a common string ("2024") would be replaced inside its
   * dates and values, corrupting every copy served. The account reaches the service only in the
   * token call's body, and its data answers do not hold it: an account in one would be the
   * service's own content, not something the gateway put there.
   */
  private async answer(response: Response): Promise<UpstreamAnswer> {
    const text = await response.text();
    const succeeded = response.status >= 200 && response.status <= 299;
    const header = (name: string): string | null => {
      const value = response.headers.get(name);
      return value === null || withoutCredentials(value, this.settings.credentials) !== value ? null : value;
    };
    return {
      status: response.status,
      body: succeeded ? text : withoutCredentials(text, this.settings.credentials),
      contentType: header("content-type"),
      retryAfter: header("retry-after"),
    };
  }

  private async currentToken(): Promise<string> {
    const held = this.token;
    if (
      held !== null &&
      held.expiresAt - renewMarginFor(held.expiresAt - held.issuedAt, RENEW_MARGIN_MS) > this.settings.now()
    ) {
      return held.value;
    }
    const refused = this.signInRefused;
    const now = this.settings.now();
    if (
      refused !== null &&
      now >= refused.at &&
      now - refused.at < standsFor(refused.answer.retryAfter, SIGN_IN_REFUSAL_STANDS_MS)
    ) {
      const { answer } = refused;
      throw new UpstreamSignInError({
        ...answer,
        retryAfter: retryAfterNow(answer.retryAfter, now - refused.at),
      });
    }
    // Concurrent callers share one sign-in.
    this.renewal ??= this.signIn().finally(() => (this.renewal = null));
    return (await this.renewal).value;
  }

  private async signIn(): Promise<HeldToken> {
    const { username, password } = this.settings.credentials;
    const ticket = { sentAt: this.settings.now(), probe: null };
    const response = await this.settings.fetch(`${this.settings.auth}/access_token/v1`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ username, password }),
      redirect: "error",
      signal: this.timeout("sign-in"),
    });
    const answer = await this.answer(response);
    // A token refused for downtime holds the calls back like a data call's (a granted one says
    // nothing of the data operations).
    if (answer.status >= 500) this.downtime.answered(answer, ticket);
    if (answer.status < 200 || answer.status > 299) {
      const refusal = signInRefusal(answer);
      if (answer.status >= 400 && answer.status <= 499)
        this.signInRefused = { answer: refusal, at: this.settings.now() };
      throw new UpstreamSignInError(refusal);
    }
    this.signInRefused = null;
    const value = readAccessToken(answer.body);
    if (value === null) {
      throw new UpstreamSignInError({
        ...answer,
        status: 502,
        body: "The service's token answer holds no access_token.",
      });
    }
    const issuedAt = this.settings.now();
    this.token = { value, expiresAt: tokenExpiry(claimsOf(value), issuedAt, TOKEN_LIFETIME_MS), issuedAt };
    return this.token;
  }
}

/**
 * What members get when the service refused the gateway's sign-in, in the gateway's own words:
 * the token service's text may echo the account in a spelling no scrub can know (JSON escapes,
 * another case), so none of it is passed on. A refused account is the administrator's to fix,
 * not the member's (502, never a 401 that would have them sign in again); the service's rate
 * limit and downtime keep their status and Retry-After, and a downtime stays one.
 */
export function signInRefusal(answer: UpstreamAnswer): UpstreamAnswer {
  const own = (status: number, message: string): UpstreamAnswer => ({
    status,
    body: JSON.stringify({ message }),
    contentType: "application/json; charset=utf-8",
    retryAfter: safeRetryAfter(answer.retryAfter),
    // The service answered it (members' add-ins read a 503 in a window as its downtime by this).
    serviceStatus: answer.status,
  });
  if (answer.status === 429) {
    return own(429, "The service is limiting the gateway's sign-ins to it (HTTP 429): try again later.");
  }
  if (answer.status >= 500) {
    const downtime = downtimeIn(answer.body);
    const what =
      downtime === "release"
        ? "is down for the monthly release"
        : downtime === "maintenance"
          ? "is down for maintenance"
          : "is failing";
    // A 504 here is no data call perhaps charged (members' add-ins read a 504 so): a 502.
    const status = answer.status === 504 ? 502 : answer.status;
    return own(status, `The service ${what}: its sign-in answered the gateway HTTP ${answer.status}.`);
  }
  return {
    ...own(
      502,
      `The gateway could not sign in to the service with its account (HTTP ${answer.status}): tell the gateway's administrator.`,
    ),
    retryAfter: null,
  };
}

/** The upstream refused the gateway's sign-in, or was unreachable for it: members get signInRefusal's answer. */
export class UpstreamSignInError extends Error {
  constructor(readonly answer: UpstreamAnswer) {
    super(`The gateway could not sign in to the service (status ${answer.status}).`);
    this.name = "UpstreamSignInError";
  }
}

/**
 * A call sent to the service had no whole answer within its time: the service may have answered
 * it, and charged it, after the gateway stopped waiting. Named as the runtime's own timeout is,
 * so whoever tells a timeout tells this one alike.
 */
export class UpstreamTimeout extends Error {
  constructor(
    readonly operation: GatewayOperation,
    readonly afterMs: number,
  ) {
    super(
      `The service did not answer the gateway's ${OPERATION_LABELS[operation]} call within ${Math.round(afterMs / 1000)} s.`,
    );
    this.name = "TimeoutError";
  }
}

/**
 * A call whose connection broke after it was sent, or while its answer came: the service may have
 * answered, and charged, it. Told as a timeout is (UpstreamTimeout): the purchase does not buy its
 * codes again for a while, and members take it as perhaps charged.
 */
export class UpstreamCutOff extends UpstreamTimeout {
  constructor(operation: GatewayOperation, error: unknown) {
    super(operation, 0);
    const code = causeCode(error);
    this.message = `The connection to the service broke before the gateway had the whole answer to its ${OPERATION_LABELS[operation]} call${code === null ? "" : ` (${code})`}.`;
  }
}

/**
 * The codes of a connection that broke once a request was on it: the service may have received
 * the call. Any other failure before an answer (no connection, a certificate or TLS refused, a
 * redirect refused, a malformed address) came before the call reached it.
 */
const BROKEN_AFTER_SENDING = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET"]);

/** The system code a fetch failure carries under `cause` (Node's fetch), or null. */
function causeCode(error: unknown): string | null {
  const cause =
    typeof error === "object" && error !== null ? (error as { cause?: unknown }).cause : undefined;
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code) ? code : null;
}

/** Whether a fetch that failed before its answer may have reached the service. */
function brokeAfterSending(error: unknown): boolean {
  const code = causeCode(error);
  return code !== null && BROKEN_AFTER_SENDING.has(code);
}

/** A call's own timeout (AbortSignal.timeout's DOMException), by its name: a DOMException of another realm is no `Error` there. */
function isTimeout(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "TimeoutError";
}

function readAccessToken(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "access_token" in parsed) {
      const token = (parsed as { access_token: unknown }).access_token;
      return typeof token === "string" && token !== "" ? token : null;
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * The token's claims, read without checking the signature (the gateway has no key), for its
 * expiry; undefined for a token that is not a readable JWT. The service's exp is believed only
 * within the engine's rules (core/token-expiry.ts): an exp already past on the gateway's clock
 * (a clock running ahead of the service's) would have every call sign in again, and one far
 * ahead would keep a dead token.
 */
function claimsOf(token: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}
