// `npm run gateway -- ...`: the team gateway (docs/gateway.md). With `user`, `key` or `usage` it
// runs that administrator's command on the database and exits; otherwise it serves, prints one
// line `PCD gateway listening at URL` when ready, and stops on Ctrl+C or SIGTERM.
import { ADMIN_COMMANDS } from "../src/gateway/admin/admin-commands";
import { knowsClientAddresses, startGateway } from "../src/gateway/gateway-app";
import { GATEWAY_USAGE, GatewayArgumentError, parseGatewayArgs } from "../src/gateway/gateway-args";
import { openGatewayStore } from "../src/gateway/store/sql-gateway-store";
import {
  credentialsFromEnvironment,
  readCredentialsFile,
  UpstreamCredentialsError,
  type UpstreamCredentials,
} from "../src/gateway/upstream/upstream-credentials";

async function serve(argv: string[]): Promise<void> {
  let options;
  let credentials: UpstreamCredentials | null;
  try {
    options = parseGatewayArgs(argv);
    credentials =
      options.upstreamCredentials !== undefined
        ? readCredentialsFile(options.upstreamCredentials)
        : credentialsFromEnvironment(process.env);
  } catch (error) {
    if (!(error instanceof GatewayArgumentError) && !(error instanceof UpstreamCredentialsError)) throw error;
    console.error(`${error.message}\n${GATEWAY_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (credentials === null) {
    console.error(
      "The Developer account is missing: set PCD_UPSTREAM_USERNAME and PCD_UPSTREAM_PASSWORD, or pass --upstream-credentials FILE.",
    );
    process.exitCode = 2;
    return;
  }
  const tls =
    options.cert !== undefined && options.key !== undefined
      ? { cert: options.cert, key: options.key }
      : undefined;
  const store = await openGatewayStore(options.database);
  const gateway = await startGateway(
    {
      upstream: {
        base: options.upstream,
        auth: options.upstreamAuth,
        credentials,
        fetch: (input, init) => fetch(input, init),
        now: Date.now,
      },
      store,
      now: Date.now,
      domain: options.domain,
      oidc: options.oidc,
      dist: options.dist,
      tls,
      catalogMaxAgeMs: options.catalogMaxAgeMs,
      ...(options.releaseBusinessDay === undefined ? {} : { releaseBusinessDay: options.releaseBusinessDay }),
      trustProxy: options.trustProxy,
      ...(options.failedSignIns === undefined ? {} : { failedSignIns: options.failedSignIns }),
    },
    { port: options.port, host: options.host },
  );
  if (options.failedSignIns === undefined && !knowsClientAddresses({ trustProxy: options.trustProxy, tls })) {
    console.error(
      "Sign-in: failed password checks are not limited per client, as the gateway cannot tell clients apart by address: behind a front end, give its address with --trust-proxy (docs/gateway.md), or, where clients reach the gateway directly, set the limit with --failed-sign-ins N.",
    );
  }
  const { day, replaced } = gateway.releaseDay;
  if (replaced !== null) {
    console.error(
      `Budgets now reset on the release's business day ${day} (was ${replaced}), for every instance on this database and the usage report: restart the instances that were already running.`,
    );
  }
  console.log(`PCD gateway listening at ${gateway.url}`);
  const stop = (): void => {
    // Closing waits for the purchases' calls out (gateway-app.ts): the store closes only after
    // their audit rows are written, or they are reported.
    void gateway
      .close()
      .then(() => store.close())
      // Closing may print lines on standard error (purchase audit rows the database refused,
      // written at the last try or lost; calls still out when the stop stopped waiting): the
      // process ends once that output has left.
      .then(() => {
        process.exitCode = 0;
        process.stderr.write("", () => process.exit());
      });
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

async function main(): Promise<void> {
  const [first = "", ...rest] = process.argv.slice(2);
  if (first === "--help" || first === "-h") {
    console.log(GATEWAY_USAGE);
    return;
  }
  const command = Object.hasOwn(ADMIN_COMMANDS, first) ? ADMIN_COMMANDS[first] : undefined;
  if (command !== undefined) {
    process.exitCode = await command.run(rest, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
    });
    return;
  }
  await serve(process.argv.slice(2));
}

main().catch((error: unknown) => {
  // A message only: a stack or an error object could carry a request with the account in it.
  console.error(`npm run gateway: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
