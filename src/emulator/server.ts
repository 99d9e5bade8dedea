// startEmulator: builds the state, the fastify app (CORS, routes, uniform errors) and
// listens. Tests, benchmarks and `npm start` use it in-process; cli.ts wraps it.
import cors from "@fastify/cors";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { EmulatorState, type EmulatorClocks } from "./emulator-state";
import { resolveOptions, type EmulatorOptions } from "./options";
import { sendError } from "./reply-error";
import { registerAdminRoutes } from "./routes/admin-routes";
import { registerProductRoutes } from "./routes/product-routes";
import { registerTokenRoute } from "./routes/token-route";
import { ServiceError } from "./service-error";

export interface RunningEmulator {
  /** http://127.0.0.1:<port>: the service base URL and the token address. */
  url: string;
  username: string;
  password: string;
  close(): Promise<void>;
}

/** Any http(s) origin on localhost or 127.0.0.1, whatever the port (dev servers move around). */
const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/;

export function buildApp(state: EmulatorState): FastifyInstance {
  const { options } = state;
  // Codes segments of 40 codes with options exceed find-my-way's default 100-character parameter limit.
  // forceCloseConnections: close() ends idle keep-alive connections instead of waiting out
  // their timeout (about 70 s), so tests and npm start stop at once.
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 8192 },
  });
  if (options.cors) registerCors(app, options.corsOrigins);
  app.setErrorHandler((error: FastifyError | ServiceError, _request, reply) => {
    if (error instanceof ServiceError) {
      return sendError(reply, options.errorFormat, error.status, error.message, error.retryAfterSeconds);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own body errors (bad JSON, wrong content type): the client's fault.
      return sendError(reply, options.errorFormat, 400, `Malformed request: ${error.message}`);
    }
    return sendError(reply, options.errorFormat, 500, `Internal emulator error: ${error.message}`);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      options.errorFormat,
      404,
      `No such endpoint: ${request.method} ${request.url.split("?")[0]}`,
    ),
  );
  void app.register(async (scope) => {
    registerTokenRoute(scope, state);
    registerProductRoutes(scope, state);
    if (options.admin) registerAdminRoutes(scope, state);
  });
  return app;
}

export async function startEmulator(
  partial: Partial<EmulatorOptions> = {},
  clocks: EmulatorClocks = {},
): Promise<RunningEmulator> {
  const options = resolveOptions(partial);
  const state = new EmulatorState(options, clocks);
  const app = buildApp(state);
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (!options.quiet) {
    const password = partial.password === undefined ? ` / password ${options.password}` : "";
    console.log(
      `PCD emulator ready at ${url} (account ${options.user}${password}; admin ${options.admin ? "on" : "off"})`,
    );
  }
  return {
    url,
    username: options.user,
    password: options.password,
    close: async () => {
      await app.close();
    },
  };
}

/** Lets browser pages on the allowed origins call the emulator (the add-in on localhost). */
function registerCors(app: FastifyInstance, corsOrigins: readonly string[]): void {
  void app.register(cors, {
    origin: (origin, callback) => {
      callback(null, origin === undefined || corsOrigins.includes(origin) || LOCAL_ORIGIN.test(origin));
    },
    methods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowedHeaders: ["Authorization", "Content-Type"],
    exposedHeaders: ["Retry-After"],
    maxAge: 600,
  });
}
