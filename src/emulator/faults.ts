// Injected faults (/__admin/faults, docs/decisions.md D26): a reply with a given status, a
// dropped connection, a malformed 200 body, or extra latency, for one operation or all,
// with a probability drawn from a seeded generator (runs repeat) and an optional count.
import type { Operation } from "./operations";
import { Prng } from "./prng";

export type FaultMode = "status" | "drop" | "malformed" | "latency";

export interface FaultSpec {
  operation: Operation | "*";
  mode: FaultMode;
  /** Reply status for mode "status". */
  status: number;
  /** Probability that a matching request is affected. */
  rate: number;
  /** Delay for mode "latency". */
  latencyMs: number;
  /** How many requests at most; undefined = unlimited. */
  count: number | undefined;
}

export interface FaultOutcome {
  delayMs: number;
  /** The status/drop/malformed fault that decides the answer, if any. */
  terminal: FaultSpec | undefined;
}

export class FaultInjector {
  private faults: { spec: FaultSpec; remaining: number }[] = [];
  private readonly random: Prng;

  constructor(seed: number) {
    this.random = Prng.from(seed, "faults");
  }

  add(spec: FaultSpec): void {
    this.faults.push({ spec, remaining: spec.count ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.faults = [];
  }

  active(): FaultSpec[] {
    return this.faults.filter((fault) => fault.remaining > 0).map((fault) => fault.spec);
  }

  /** Decides what the active faults do to one request (latencies add up; the first terminal one wins). */
  onRequest(operation: Operation): FaultOutcome {
    const outcome: FaultOutcome = { delayMs: 0, terminal: undefined };
    for (const fault of this.faults) {
      const { spec } = fault;
      if (fault.remaining <= 0 || (spec.operation !== "*" && spec.operation !== operation)) continue;
      if (spec.mode !== "latency" && outcome.terminal !== undefined) continue;
      if (this.random.next() >= spec.rate) continue;
      fault.remaining -= 1;
      if (spec.mode === "latency") outcome.delayMs += spec.latencyMs;
      else outcome.terminal = spec;
    }
    return outcome;
  }
}
