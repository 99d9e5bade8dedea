// Members sign in at <gateway>/auth/access_token/v1 exactly as at the service: the same request
// and answer shape, answered with the gateway's own 2-hour token. Attempts are rate limited per
// client (client-address.ts) and name, so a password cannot be guessed at speed, and, where the
// gateway knows its clients' addresses, a client's failed password checks are limited whatever
// the names (failed-sign-ins.ts), so one client cannot try a password on every member's name at
// speed; both are counted in the database by every instance on it (sign-in-limit-store.ts). Only
// attempts that cost a password check get a count of their own: a flood of cheap attempts (no
// body, an address outside the domain, a wrong API key) shares one count per client, so it
// makes one row per client, not one per name tried.
// A working API key is never limited (it cannot be guessed, and scripts behind one front end
// share its address).
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { API_KEY_USERNAME, apiKeyCredentials, apiKeyMember, hashApiKeySecret } from "../api-keys/api-key";
import { GATEWAY_REFUSAL_HEADER, MEMBER_BLOCKED } from "../../core/http/gateway-refusal-header";
import { blockedMessage } from "../member-access";
import { issueMemberToken, type TokenSubject } from "../member-token";
import { inDomain, normaliseEmail } from "../members/member-email";
import type { ApiKey, GatewayStore } from "../store/gateway-store";
import { clientKey } from "./client-address";
import { checkPassed, countCheck, type FailedSignInSettings } from "./failed-sign-ins";
import { sendMessage } from "./relay";
import { NOT_COUNTED, sharedSignInLimitStore } from "./sign-in-limit-store";

export interface AuthRouteSettings {
  store: GatewayStore;
  now: () => number;
  /** Members' addresses must end in @domain when set. */
  domain: string | null;
  signInAttempts: { max: number; windowMs: number };
  /** Failed password checks one client may have in a window, whatever the names; null: no limit. */
  failedSignIns: FailedSignInSettings | null;
  /** A sign-in refused by a limit, or because the database could not count it (for /metrics). */
  refused?: (reason: SignInRefusal) => void;
}

/** Why a sign-in was refused before its password was checked. */
export type SignInRefusal = "attempts per client and name" | "failures per client" | "not counted";

interface SignInBody {
  username?: unknown;
  password?: unknown;
}

/** The name a sign-in attempt is counted under: its own for a member of the domain, else a shared one. */
function countedName(body: SignInBody | undefined, domain: string | null): string {
  const name = body?.username;
  if (typeof name !== "string" || typeof body?.password !== "string") return "(malformed)";
  const email = normaliseEmail(name);
  if (email === API_KEY_USERNAME) return "(api key)";
  return inDomain(email, domain) ? email : "(outside the domain)";
}

declare module "fastify" {
  interface FastifyRequest {
    /** The API key the sign-in presented, when it is a working one (found before the limiter counts). */
    workingKey?: ApiKey;
  }
}

export async function registerAuthRoutes(app: FastifyInstance, settings: AuthRouteSettings): Promise<void> {
  await app.register(async (scope) => {
    // The limiter's store fails with NOT_COUNTED when the database cannot count an attempt
    // (sign-in-limit-store.ts): the member gets the same 503 as from the count of failures,
    // not fastify's 500, and /metrics counts it. Any other error goes on to fastify's handler.
    const fastifyHandler = scope.errorHandler;
    scope.setErrorHandler(function notCounted(error, request, reply) {
      if (error instanceof Error && error.message === NOT_COUNTED) {
        settings.refused?.("not counted");
        return sendMessage(reply, 503, NOT_COUNTED);
      }
      return fastifyHandler.call(this, error, request, reply);
    });
    await scope.register(rateLimit, {
      global: false,
      // After the body is read, so the name can be part of the key.
      hook: "preHandler",
      store: sharedSignInLimitStore(settings.store.attempts, settings.now),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Too many sign-in attempts: try again in ${Math.ceil(context.ttl / 1000)} s.`,
      }),
    });
    scope.post<{ Body: SignInBody }>(
      "/auth/access_token/v1",
      {
        config: {
          rateLimit: {
            max: settings.signInAttempts.max,
            timeWindow: settings.signInAttempts.windowMs,
            onExceeded: () => settings.refused?.("attempts per client and name"),
            keyGenerator: (request) =>
              `${clientKey(request.ip, request.socket.remoteAddress)}|${countedName(request.body as SignInBody | undefined, settings.domain)}`,
            allowList: async (request) => {
              const { username, password } = (request.body as SignInBody | undefined) ?? {};
              if (typeof username !== "string" || normaliseEmail(username) !== API_KEY_USERNAME) return false;
              if (typeof password !== "string" || password === "") return false;
              const key =
                request.workingKey ?? (await settings.store.keys.verify(hashApiKeySecret(password)));
              if (key !== null) request.workingKey = key;
              return key !== null;
            },
          },
        },
      },
      async (request, reply) => {
        const { username, password } = request.body ?? {};
        if (
          typeof username !== "string" ||
          typeof password !== "string" ||
          username === "" ||
          password === ""
        ) {
          return sendMessage(reply, 400, "Sign-in needs a JSON body with username and password.");
        }
        const email = normaliseEmail(username);
        let subject: TokenSubject;
        if (email === API_KEY_USERNAME) {
          const key = await settings.store.keys.verify(hashApiKeySecret(password));
          if (key === null)
            return sendMessage(reply, 401, "Invalid credentials: unknown or revoked API key.");
          subject = { subject: apiKeyMember(key.name), credentials: apiKeyCredentials(key) };
        } else {
          let member = null;
          if (inDomain(email, settings.domain)) {
            const { attempts } = settings.store;
            const limit = settings.failedSignIns;
            const client = clientKey(request.ip, request.socket.remoteAddress);
            if (limit !== null) {
              let heldFor;
              try {
                heldFor = await countCheck(attempts, client, limit, settings.now());
              } catch {
                settings.refused?.("not counted");
                return sendMessage(reply, 503, NOT_COUNTED);
              }
              if (heldFor !== null) {
                settings.refused?.("failures per client");
                reply.header("Retry-After", String(heldFor));
                return sendMessage(
                  reply,
                  429,
                  `Too many failed sign-ins from this address: try again in ${heldFor} s.`,
                );
              }
            }
            member = await settings.store.members.verify(email, password);
            // A right password was no failure. Should the database not take the count back,
            // the member signs in all the same; the count ends with its window.
            if (member !== null && limit !== null) {
              await checkPassed(attempts, client, settings.now()).catch(() => undefined);
            }
          }
          if (member === null) {
            return sendMessage(reply, 401, "Invalid credentials: unknown member or wrong password.");
          }
          if (member.blocked) {
            // Said apart from a wrong password, also at a first sign-in (the add-in's words).
            reply.header(GATEWAY_REFUSAL_HEADER, MEMBER_BLOCKED);
            return sendMessage(reply, 403, blockedMessage(member.email));
          }
          const credentials = await settings.store.members.credentials(member.email);
          if (credentials === null) {
            return sendMessage(reply, 401, "Invalid credentials: unknown member or wrong password.");
          }
          subject = { subject: member.email, credentials };
        }
        const token = await issueMemberToken(subject, await settings.store.tokenSecret(), settings.now());
        return reply.type("application/json; charset=utf-8").send({ access_token: token });
      },
    );
  });
}
