// What cells should show: the formulas run straight against the service (no gateway), on its
// clock, for tests that compare a member's cells through the gateway with them.
import { runWorkbook, type RunReport } from "../../../src/headless";
import type { ServiceUnderTest } from "./team";

export function runDirect(service: ServiceUnderTest, formulas: readonly string[]): Promise<RunReport> {
  return runWorkbook({
    formulas,
    baseUrl: service.emulator.url,
    authUrl: service.emulator.url,
    username: service.emulator.username,
    password: service.emulator.password,
    clock: { now: service.now },
    log: () => undefined,
    timeoutMs: 60_000,
  });
}
