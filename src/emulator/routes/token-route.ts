// POST /access_token/v1 (docs/service.md §4.1): {username, password} -> {access_token}.
import type { FastifyInstance } from "fastify";
import * as v from "valibot";
import { parseBody } from "../body-schema";
import type { EmulatorState } from "../emulator-state";
import { guardRequest } from "../request-guard";

const CredentialsSchema = v.object({
  username: v.pipe(v.string("username must be a string"), v.nonEmpty("username must not be empty")),
  password: v.pipe(v.string("password must be a string"), v.nonEmpty("password must not be empty")),
});

export function registerTokenRoute(app: FastifyInstance, state: EmulatorState): void {
  app.post(
    "/access_token/v1",
    { onRequest: async () => state.countCall("access_token") },
    async (request, reply) => {
      if (!(await guardRequest(state, request, reply, "access_token", false))) return reply;
      const credentials = parseBody(CredentialsSchema, request.body, "access token request");
      const accessToken = await state.tokens.issue(credentials.username, credentials.password);
      return reply.send({ access_token: accessToken });
    },
  );
}
