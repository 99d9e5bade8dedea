import { PcdError } from "../../src/core/errors";
import type { DatasetAllowance, ProductId } from "../../src/core/model";
import { MEMBER_BUDGET_RECHECK_MS, QuotaLedger } from "../../src/core/quota-ledger";

const RELEASE_NOV = Date.UTC(2026, 10, 4, 12);
const RELEASE_DEC = Date.UTC(2026, 11, 3, 12);

function ledgerAt(
  start: number,
  options: { throughGateway?: boolean } = {},
): { ledger: QuotaLedger; clock: { now: number } } {
  const clock = { now: start };
  const ledger = new QuotaLedger({
    now: () => clock.now,
    latestReleaseStart: () => (clock.now >= RELEASE_DEC ? RELEASE_DEC : RELEASE_NOV),
    nextRelease: () => (clock.now >= RELEASE_DEC ? Date.UTC(2027, 0, 6, 12) : RELEASE_DEC),
    answersMayBeFree: () => options.throughGateway === true,
  });
  return { ledger, clock };
}

interface Item {
  code: string;
  dataset: string;
}
const items = (dataset: string, count: number): Item[] =>
  Array.from({ length: count }, (_, i) => ({ code: `${i}-1-1`, dataset }));

describe("QuotaLedger.admit", () => {
  test("never admits more codes than a dataset has left, and charges what it admits", () => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", { Germany: { remaining: 3, total: 500 } });
    const admission = ledger.admit("live", "energy_price", items("Germany", 5), (item) => item.dataset);
    expect(admission.admitted).toHaveLength(3);
    expect(admission.refused).toHaveLength(2);
    expect(admission.refused[0]?.error.message).toBe(
      "Monthly allowance used up for dataset 'Germany' (0 of 500 left); it resets at the next monthly release, 2026-12-03.",
    );
    expect(admission.refused[0]?.error.details.dataset).toBe("Germany");
    // Admitted codes are unconfirmed until their call is answered, not charged yet.
    expect(ledger.remaining("live", "energy_price", "Germany")).toBe(3);
    expect(ledger.unconfirmed("live", "energy_price", "Germany")).toBe(3);
  });

  test("one exhausted dataset does not stop the others in the same call", () => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", {
      Germany: { remaining: 0, total: 500 },
      France: { remaining: 10, total: 500 },
    });
    const admission = ledger.admit(
      "live",
      "energy_price",
      [...items("Germany", 2), ...items("France", 2)],
      (item) => item.dataset,
    );
    expect(admission.admitted.map((item) => item.dataset)).toEqual(["France", "France"]);
    expect(admission.refused.map(({ item }) => item.dataset)).toEqual(["Germany", "Germany"]);
    ledger.confirm("live", "energy_price", ["France", "France"]);
    expect(ledger.remaining("live", "energy_price", "France")).toBe(8);
  });

  test.each([
    ["the sandbox (no allowances)", "sandbox" as const, { Germany: { remaining: 0, total: 500 } }],
    ["a dataset the limits do not list", "live" as const, { France: { remaining: 0, total: 500 } }],
    ["unknown limits", "live" as const, undefined],
  ])("admits everything for %s", (_case, environment, limits) => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    if (limits) ledger.record(environment, "energy_price", limits);
    expect(
      ledger.admit(environment, "energy_price", items("Germany", 4), (item) => item.dataset).admitted,
    ).toHaveLength(4);
  });

  test.each<
    [string, (ledger: QuotaLedger) => void, { remaining: number; unconfirmed: number; current: boolean }]
  >([
    ["in flight: unconfirmed", () => undefined, { remaining: 5, unconfirmed: 2, current: true }],
    [
      "answered 2xx: charged",
      (ledger) => ledger.confirm("live", "energy_price", ["Germany", "Germany"]),
      { remaining: 3, unconfirmed: 0, current: true },
    ],
    [
      "answered with an error: not charged",
      (ledger) => ledger.refund("live", "energy_price", ["Germany", "Germany"]),
      { remaining: 5, unconfirmed: 0, current: true },
    ],
    [
      "no answer: unconfirmed, and Data Limits is due again",
      (ledger) => ledger.unanswered("live", "energy_price", ["Germany", "Germany"]),
      { remaining: 5, unconfirmed: 2, current: false },
    ],
    [
      "no answer, then Data Limits (free) settles it: the service charged one",
      (ledger) => {
        ledger.unanswered("live", "energy_price", ["Germany", "Germany"]);
        ledger.record("live", "energy_price", { Germany: { remaining: 4, total: 5 } });
      },
      { remaining: 4, unconfirmed: 0, current: true },
    ],
  ])("two codes sent, %s", (_case, outcome, expected) => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", { Germany: { remaining: 5, total: 5 } });
    ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
    outcome(ledger);
    expect({
      remaining: ledger.remaining("live", "energy_price", "Germany"),
      unconfirmed: ledger.unconfirmed("live", "energy_price", "Germany"),
      current: ledger.isCurrent("live", "energy_price"),
    }).toEqual(expected);
  });

  test("unconfirmed codes count against what may still be sent", () => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", { Germany: { remaining: 3, total: 5 } });
    ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
    ledger.unanswered("live", "energy_price", ["Germany", "Germany"]);
    const next = ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
    expect(next.admitted).toHaveLength(1);
    expect(next.refused).toHaveLength(1);
  });

  test("refund gives back charges of a call the service rejected", () => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", { Germany: { remaining: 5, total: 5 } });
    ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
    ledger.refund("live", "energy_price", ["Germany", "Germany", "Germany"]);
    expect(ledger.remaining("live", "energy_price", "Germany")).toBe(5);
  });
});

describe("QuotaLedger.block", () => {
  test("a quota error blocks the dataset until the next release starts", () => {
    const { ledger, clock } = ledgerAt(RELEASE_NOV + 1000);
    const cause = new PcdError("quota", "Quota limit reached", {
      status: 429,
      serverMessage: "Quota limit reached",
    });
    const error = ledger.block("live", "commodity_price", "Polymers", cause);
    expect(error.kind).toBe("quota");
    expect(error.details).toMatchObject({ dataset: "Polymers", serverMessage: "Quota limit reached" });
    expect(
      ledger.admit("live", "commodity_price", items("Polymers", 1), (item) => item.dataset).refused,
    ).toHaveLength(1);
    expect(ledger.blockOf("live", "commodity_price", "Aromatics & Derivatives")).toBeUndefined();

    clock.now = RELEASE_DEC + 1;
    expect(ledger.blockOf("live", "commodity_price", "Polymers")).toBeUndefined();
  });
});

describe("a team gateway's member budget", () => {
  const MEMBER_REFUSAL =
    "Quota limit reached for member ana@team.example: until 2026-12-03 the gateway's budget of 10 data requests " +
    "for dataset 'Germany' has 1 left; this request needs 2. " +
    "Ask the gateway's administrator to raise the budget.";
  const memberRefusal = (): PcdError =>
    new PcdError("quota", MEMBER_REFUSAL, {
      status: 403,
      serverMessage: MEMBER_REFUSAL,
      dataset: "Germany",
      memberBudget: true,
    });

  // A gateway's member budget resets at the release, as the team's allowance does, and an
  // administrator may raise it meanwhile: a reading with more left lifts the block at once.
  test.each<[string, number, "member" | "team", Array<[ProductId, number]>, boolean]>([
    ["the same month, no reading since: stays", Date.UTC(2026, 10, 20), "member", [], false],
    ["a reading with as little left: stays", Date.UTC(2026, 10, 20), "member", [["energy_price", 1]], false],
    [
      "a raised budget (a reading with more left): lifts",
      Date.UTC(2026, 10, 20),
      "member",
      [["energy_price", 41]],
      true,
    ],
    [
      "another product's reading with more left: stays",
      Date.UTC(2026, 10, 20),
      "member",
      [["commodity_price", 41]],
      false,
    ],
    ["a new calendar month before the release: stays", Date.UTC(2026, 11, 1), "member", [], false],
    ["the last moment before the release: stays", RELEASE_DEC - 1, "member", [], false],
    ["the release: lifts", RELEASE_DEC, "member", [], true],
    ["the team's allowance used up, a new calendar month: stays", Date.UTC(2026, 11, 1), "team", [], false],
    ["the team's allowance used up, the release: lifts", RELEASE_DEC, "team", [], true],
  ])("a block after %s", (_case, at, refusedFor, readings, lifted) => {
    const { ledger, clock } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", {
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
    });
    const cause =
      refusedFor === "member"
        ? memberRefusal()
        : new PcdError("quota", "Quota limit reached", { status: 403 });
    ledger.block("live", "energy_price", "Germany", cause);
    clock.now = at;
    for (const [product, remaining] of readings) {
      ledger.record("live", product, {
        Germany: { remaining: 480, total: 500, member: { budget: 50, remaining } },
      });
    }
    expect(ledger.blockOf("live", "energy_price", "Germany") === undefined).toBe(lifted);
  });

  // The gateway says when the budget comes back: its release day may not be this engine's.
  test.each<[string, number | undefined, number, boolean]>([
    [
      "an earlier release than this engine's: stays until it",
      Date.UTC(2026, 11, 1, 12),
      Date.UTC(2026, 11, 1, 12) - 1,
      false,
    ],
    [
      "an earlier release than this engine's: lifts then",
      Date.UTC(2026, 11, 1, 12),
      Date.UTC(2026, 11, 1, 12),
      true,
    ],
    [
      "a later release than this engine's: this engine's release lifts it",
      Date.UTC(2026, 11, 7, 12),
      RELEASE_DEC,
      true,
    ],
    [
      "a moment already past when refused: looked at again a minute later",
      RELEASE_NOV,
      RELEASE_NOV + 1000 + MEMBER_BUDGET_RECHECK_MS - 1,
      false,
    ],
    [
      "a moment already past when refused: lifts a minute later",
      RELEASE_NOV,
      RELEASE_NOV + 1000 + MEMBER_BUDGET_RECHECK_MS,
      true,
    ],
    ["not said: stays until this engine's release", undefined, Date.UTC(2026, 11, 2, 12), false],
  ])("a block when the gateway's reading says the budget resets at %s", (_case, resetsAt, at, lifted) => {
    const { ledger, clock } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", {
      Germany: {
        remaining: 480,
        total: 500,
        member: { budget: 10, remaining: 1, ...(resetsAt === undefined ? {} : { resetsAt }) },
      },
    });
    ledger.block("live", "energy_price", "Germany", memberRefusal());
    clock.now = at;
    expect(ledger.blockOf("live", "energy_price", "Germany") === undefined).toBe(lifted);
  });

  test("a refusal after the reset the reading named: the reading is read again before the next call", () => {
    const { ledger } = ledgerAt(RELEASE_DEC + 5_000);
    // Read a moment before the gateway's reset by this engine's clock, which runs ahead of it.
    ledger.record("live", "energy_price", {
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 0, resetsAt: RELEASE_DEC } },
    });
    expect(ledger.isCurrent("live", "energy_price")).toBe(true);
    ledger.block("live", "energy_price", "Germany", memberRefusal());
    expect(ledger.isCurrent("live", "energy_price")).toBe(false);
    // A new reading is current again, and names the next reset.
    ledger.record("live", "energy_price", {
      Germany: {
        remaining: 480,
        total: 500,
        member: { budget: 10, remaining: 10, resetsAt: Date.UTC(2027, 0, 5, 12) },
      },
    });
    expect(ledger.isCurrent("live", "energy_price")).toBe(true);
    expect(ledger.blockOf("live", "energy_price", "Germany")).toBeUndefined();
  });

  test.each<[string, DatasetAllowance]>([
    ["no budget of the member's in the reading (given since)", { remaining: 480, total: 500 }],
    [
      "a moment already past",
      { remaining: 480, total: 500, member: { budget: 10, remaining: 0, resetsAt: RELEASE_NOV } },
    ],
    ["no reset said", { remaining: 480, total: 500, member: { budget: 10, remaining: 0 } }],
  ])(
    "a refusal whose reading names no reset ahead (%s): read again, the block takes the reset then named",
    (_case, held) => {
      const { ledger, clock } = ledgerAt(Date.UTC(2026, 10, 20));
      ledger.record("live", "energy_price", { Germany: held });
      ledger.block("live", "energy_price", "Germany", memberRefusal());
      expect(ledger.isCurrent("live", "energy_price")).toBe(false);
      const gatewayReset = Date.UTC(2026, 11, 1, 12);
      ledger.record("live", "energy_price", {
        Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 0, resetsAt: gatewayReset } },
      });
      expect(ledger.isCurrent("live", "energy_price")).toBe(true);
      clock.now = Date.UTC(2026, 10, 20) + MEMBER_BUDGET_RECHECK_MS;
      expect(ledger.blockOf("live", "energy_price", "Germany")).toBeDefined();
      clock.now = gatewayReset - 1;
      expect(ledger.blockOf("live", "energy_price", "Germany")).toBeDefined();
      clock.now = gatewayReset;
      expect(ledger.blockOf("live", "energy_price", "Germany")).toBeUndefined();
    },
  );

  test("a refusal for the member's budget blocks this engine in the gateway's words; the team's numbers stay", () => {
    const { ledger, clock } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", {
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
    });
    const error = ledger.block("live", "energy_price", "Germany", memberRefusal());
    expect(error.message).toBe(MEMBER_REFUSAL);
    expect(error.details).toMatchObject({ dataset: "Germany", memberBudget: true });
    expect(ledger.limitsOf("live", "energy_price")).toEqual({
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
    });
    const admission = ledger.admit("live", "energy_price", items("Germany", 1), (item) => item.dataset);
    expect(admission.refused.map(({ error: refused }) => refused.message)).toEqual([MEMBER_REFUSAL]);
    clock.now = RELEASE_DEC + 1;
    expect(ledger.blockOf("live", "energy_price", "Germany")).toBeUndefined();
  });

  test.each<
    [string, { remaining: number; total: number; member?: { budget: number; remaining: number } }, number]
  >([
    ["no budget: the team's", { remaining: 480, total: 500 }, 480],
    [
      "a budget with less left than the team",
      { remaining: 480, total: 500, member: { budget: 10, remaining: 4 } },
      4,
    ],
    [
      "a team with less left than the budget",
      { remaining: 2, total: 500, member: { budget: 10, remaining: 4 } },
      2,
    ],
  ])("what remains to spend: %s", (_case, allowance, remaining) => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", { Germany: allowance });
    expect(ledger.remaining("live", "energy_price", "Germany")).toBe(remaining);
  });

  // Through a gateway a 2xx answer may have cost nothing (it serves what it keeps), and its
  // answers do not say which: its Data Limits is the count, read again after a run of calls.
  test.each<[string, (ledger: QuotaLedger) => void, DatasetAllowance, boolean]>([
    [
      "an answer takes nothing off the team's allowance or the member's budget; the reading is read again",
      (ledger) => {
        ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
        ledger.confirm("live", "energy_price", ["Germany", "Germany"]);
      },
      { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
      true,
    ],
    [
      "an answer confirmed while Data Limits was read takes nothing off its figures either",
      (ledger) => {
        ledger.admit("live", "energy_price", items("Germany", 1), (item) => item.dataset);
        const reading = ledger.readStarted("live", "energy_price");
        ledger.confirm("live", "energy_price", ["Germany"]);
        ledger.record(
          "live",
          "energy_price",
          { Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } } },
          reading,
        );
      },
      { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
      true,
    ],
    [
      "a call refused by the gateway charged nothing: nothing to read again",
      (ledger) => {
        ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
        ledger.refund("live", "energy_price", ["Germany", "Germany"]);
      },
      { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
      false,
    ],
  ])("through a gateway, %s", (_case, calls, shown, readAgain) => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000, { throughGateway: true });
    ledger.record("live", "energy_price", {
      Germany: { remaining: 480, total: 500, member: { budget: 10, remaining: 1 } },
    });
    calls(ledger);
    expect(ledger.limitsOf("live", "energy_price")?.Germany).toEqual(shown);
    expect(ledger.needsSettling("live", "energy_price")).toBe(readAgain);
  });

  // What the gateway keeps costs neither: it judges what it must buy, and refuses that itself.
  test.each<[string, DatasetAllowance, boolean, number]>([
    ["directly, an allowance used up: refused here", { remaining: 0, total: 500 }, false, 0],
    ["through a gateway, the team's allowance used up: sent", { remaining: 0, total: 500 }, true, 3],
    [
      "through a gateway, the member's budget used up: sent",
      { remaining: 480, total: 500, member: { budget: 10, remaining: 0 } },
      true,
      3,
    ],
  ])("%s", (_case, allowance, throughGateway, admitted) => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000, { throughGateway });
    ledger.record("live", "energy_price", { Germany: allowance });
    const admission = ledger.admit("live", "energy_price", items("Germany", 3), (item) => item.dataset);
    expect(admission.admitted).toHaveLength(admitted);
  });
});

describe("QuotaLedger.isCurrent", () => {
  test("limits fetched before the latest release are outdated (allowances reset)", () => {
    const { ledger, clock } = ledgerAt(RELEASE_NOV + 1000);
    expect(ledger.isCurrent("live", "energy_price")).toBe(false);
    ledger.record("live", "energy_price", {});
    expect(ledger.isCurrent("live", "energy_price")).toBe(true);
    expect(ledger.isCurrent("live", "energy_price", 60_000)).toBe(true);
    clock.now += 60_000;
    expect(ledger.isCurrent("live", "energy_price", 60_000)).toBe(false);
    clock.now = RELEASE_DEC + 1;
    expect(ledger.isCurrent("live", "energy_price")).toBe(false);
  });
});

describe("a reading from before the allowances reset", () => {
  // How the release reaches the ledger: the calendar's release day, or a release the
  // catalog showed first (resetSeen).
  test.each<[string, (ledger: QuotaLedger, clock: { now: number }) => void]>([
    ["the calendar's release", (_ledger, clock) => (clock.now = RELEASE_DEC + 1)],
    [
      "a release the catalog showed",
      (ledger, clock) => {
        clock.now += 60_000;
        ledger.resetSeen(clock.now);
      },
    ],
  ])("after %s it neither refuses a call nor shows a remaining figure", (_name, release) => {
    const { ledger, clock } = ledgerAt(RELEASE_NOV + 1000);
    ledger.record("live", "energy_price", { Germany: { remaining: 0, total: 500 } });
    expect(
      ledger.admit("live", "energy_price", items("Germany", 1), (item) => item.dataset).refused,
    ).toHaveLength(1);
    expect(ledger.readBeforeReset("live", "energy_price")).toBe(false);

    release(ledger, clock);
    const admission = ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
    expect(admission.admitted).toHaveLength(2);
    expect(ledger.remaining("live", "energy_price", "Germany")).toBeNull();
    expect(ledger.readBeforeReset("live", "energy_price")).toBe(true);

    // The next reading is the service's figure again.
    ledger.record("live", "energy_price", { Germany: { remaining: 1, total: 500 } });
    expect(ledger.remaining("live", "energy_price", "Germany")).toBe(1);
    expect(ledger.readBeforeReset("live", "energy_price")).toBe(false);
  });
});

describe("dataset names like Object's properties", () => {
  test.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "%s: no allowance is found on the prototype; a recorded one is its own",
    (dataset) => {
      const { ledger } = ledgerAt(RELEASE_NOV + 1000);
      ledger.record("live", "energy_price", { Germany: { remaining: 3, total: 500 } });
      expect(ledger.remaining("live", "energy_price", dataset)).toBeNull();
      const admission = ledger.admit("live", "energy_price", items(dataset, 2), (item) => item.dataset);
      expect(admission.admitted).toHaveLength(2);
      const own = {};
      Object.defineProperty(own, dataset, { value: { remaining: 1, total: 9 }, enumerable: true });
      ledger.record("live", "commodity_price", own);
      expect(ledger.remaining("live", "commodity_price", dataset)).toBe(1);
    },
  );
});

describe("QuotaLedger.record with the calls that moved while Data Limits was read", () => {
  type Move = "confirm" | "unanswered" | "refund";
  // Each row: how each code in flight when the read was sent ended while its answer was on the
  // way; how each code sent while it was on the way ends after the answer is recorded; what the
  // service answered; what the ledger holds then; whether, once every call is over, the
  // reading is to be read again.
  const rows: Array<{
    name: string;
    endedWhileReading: Move[];
    sentWhileReading: Move[];
    answered: number;
    remaining: number;
    unconfirmed: number;
    current: boolean;
    readAgain: boolean;
  }> = [
    {
      name: "nothing moved",
      endedWhileReading: [],
      sentWhileReading: [],
      answered: 480,
      remaining: 480,
      unconfirmed: 0,
      current: true,
      readAgain: false,
    },
    {
      name: "a charge confirmed meanwhile is taken off",
      endedWhileReading: ["confirm"],
      sentWhileReading: [],
      answered: 480,
      remaining: 479,
      unconfirmed: 0,
      current: true,
      readAgain: true,
    },
    {
      name: "a refund changes nothing",
      endedWhileReading: ["refund"],
      sentWhileReading: [],
      answered: 480,
      remaining: 480,
      unconfirmed: 0,
      current: true,
      readAgain: true,
    },
    {
      name: "a call that ended unanswered meanwhile stays unknown",
      endedWhileReading: ["unanswered"],
      sentWhileReading: [],
      answered: 480,
      remaining: 480,
      unconfirmed: 1,
      current: false,
      readAgain: true,
    },
    {
      name: "a code sent meanwhile stays in flight",
      endedWhileReading: [],
      sentWhileReading: ["confirm"],
      answered: 480,
      remaining: 480,
      unconfirmed: 1,
      current: true,
      readAgain: true,
    },
  ];
  test.each(rows)(
    "$name",
    ({ endedWhileReading, sentWhileReading, answered, remaining, unconfirmed, current, readAgain }) => {
      const { ledger } = ledgerAt(RELEASE_NOV + 1000);
      ledger.record("live", "energy_price", { Germany: { remaining: 500, total: 500 } });
      const inFlight = ledger.admit(
        "live",
        "energy_price",
        items("Germany", endedWhileReading.length),
        (item) => item.dataset,
      );
      expect(inFlight.admitted).toHaveLength(endedWhileReading.length);
      const reading = ledger.readStarted("live", "energy_price");
      for (const move of endedWhileReading) ledger[move]("live", "energy_price", ["Germany"]);
      ledger.admit("live", "energy_price", items("Germany", sentWhileReading.length), (item) => item.dataset);
      ledger.record("live", "energy_price", { Germany: { remaining: answered, total: 500 } }, reading);
      expect(ledger.remaining("live", "energy_price", "Germany")).toBe(remaining);
      expect(ledger.unconfirmed("live", "energy_price", "Germany")).toBe(unconfirmed);
      expect(ledger.isCurrent("live", "energy_price")).toBe(current);
      for (const move of sentWhileReading) ledger[move]("live", "energy_price", ["Germany"]);
      expect(ledger.needsSettling("live", "energy_price")).toBe(readAgain);
    },
  );

  test("a charge confirmed before any Data Limits answer was known still counts against the first answer", () => {
    const { ledger } = ledgerAt(RELEASE_NOV + 1000);
    const reading = ledger.readStarted("live", "energy_price");
    ledger.admit("live", "energy_price", items("Germany", 2), (item) => item.dataset);
    ledger.confirm("live", "energy_price", ["Germany", "Germany"]);
    ledger.record("live", "energy_price", { Germany: { remaining: 500, total: 500 } }, reading);
    expect(ledger.remaining("live", "energy_price", "Germany")).toBe(498);
    expect(ledger.needsSettling("live", "energy_price")).toBe(true);
  });
});
