// The month in the browser: the preview page (the real task pane beside the grid, under the
// mock Office host) against an emulator of its own, the page's clock and the emulator's moved
// together through December 2026 (the runner-level month's script, test/month/support/
// month-script.ts). At each step the walk reads what the pane and the cells say and what the
// emulator counted, and judges it with named checks: a broken check is recorded with the
// invariant's name and the step, and the walk goes on, so one run tells every break.
//
// Time: both clocks flow with real time between the steps (the page's as playwright's clock
// resumed, the emulator's offset clock); a step moves both to its instant, the emulator's
// first, then the page's with clock.fastForward (the page's timers due by then fire once, as
// after a sleep), only when the page has no call or storage work under way. "Settling" after
// the service is back moves the page on in chunks of minutes with its timers firing, so the
// cells' retries and the outage probe happen as they would.
import type { FastifyInstance } from "fastify";
import type { Page } from "playwright-core";
import { PRODUCTS, type Operation, type ProductId } from "../../../src/core/model";
import { EmulatorState } from "../../../src/emulator/emulator-state";
import { resolveOptions } from "../../../src/emulator/options";
import { buildApp } from "../../../src/emulator/server";
import { PRODUCT_LABELS } from "../../../src/taskpane/series-filters";
import type { EmulatorStats } from "../../month/support/month-lab";
import {
  DOCUMENTED_PROBES,
  MAX_CALLS_PER_OPERATION_PER_HOUR,
  MONTH_SEED,
  MONTH_STEPS,
  RELEASE_HOUR_CENTRAL,
  SETTLE_MS,
  type DowntimeKind,
} from "../../month/support/month-script";
import { monthWorkbook } from "../../month/support/month-workbook";
import { classOfMessage } from "../../month/support/service-truth";
import { screenshot, type PreviewPage } from "./preview-fixture";

/** How long (real time) a check waits for the pane to say the true thing before it fails. */
export const CHECK_WAIT_MS = 8_000;
/** How often a check reads the page again while it waits. */
const POLL_MS = 50;
/**
 * How long (real time) the walk waits for the page to go quiet before a clock move. Moving
 * the page's clock with a call in flight would time that call out, so a page that stays
 * busy this long fails the walk instead of being moved on.
 */
export const QUIET_WAIT_MS = 30_000;
/** How often (real time) the walk looks at the page and the emulator while it waits for quiet. */
const QUIET_ROUND_MS = 60;
/**
 * How far ahead of the page's time its clock is paused before a jump: the pause itself moves
 * the clock (playwright's pauseAt cannot stop at a time already passed), by far less than any
 * call's or storage's timeout.
 */
const PAUSE_LEAD_MS = 1_000;
/**
 * How far the paused page's timers run before the walk looks whether it is still: past a
 * zero-delay hop and the request gate's spacing of a call from the one before (about 105 ms
 * at ten calls a second).
 */
const PAUSED_RUN_MS = 250;

interface PageState {
  idle: boolean;
  summary: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads until `done` holds, or until CHECK_WAIT_MS have passed: the page renders what the
 * engine says on its own time. The caller judges what was read last (a check that still
 * does not hold then fails, naming what it saw).
 */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + CHECK_WAIT_MS;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    value = await read();
  }
  return value;
}

const OPERATIONS: readonly Operation[] = [
  "access_token",
  "series_info",
  "series_values",
  "series_hist",
  "data_limits",
];

/** The month script's instant of a step, by its name (the browser walk lives the same days). */
export function monthStepAt(name: string): string {
  const step = MONTH_STEPS.find((candidate) => candidate.name === name);
  if (!step) throw new Error(`the month script has no step "${name}"`);
  return step.at;
}

/** The instant the seeded release is published on release day (3 Dec 2026, US Central = UTC-6). */
export const RELEASE_PUBLISHED = new Date(
  Date.parse("2026-12-03T06:00:00Z") + RELEASE_HOUR_CENTRAL * 3_600_000,
).toISOString();

/**
 * The emulator, built in-process so the walk reads the service's Data Limits from its
 * state (a Data Limits call would count among the calls the walk judges).
 */
export class ServiceLab {
  readonly username: string;
  readonly password: string;

  private constructor(
    readonly state: EmulatorState,
    private readonly app: FastifyInstance,
    readonly url: string,
  ) {
    this.username = state.options.user;
    this.password = state.options.password;
  }

  static async start(now: string): Promise<ServiceLab> {
    const state = new EmulatorState(
      resolveOptions({ port: 0, quiet: true, now, seed: MONTH_SEED, releaseHour: RELEASE_HOUR_CENTRAL }),
    );
    const app = buildApp(state);
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    return new ServiceLab(state, app, `http://127.0.0.1:${port}`);
  }

  async admin<T>(pathname: string, body?: unknown, method: "GET" | "POST" | "DELETE" = "POST"): Promise<T> {
    const response = await fetch(`${this.url}/__admin/${pathname}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`/__admin/${pathname}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  stats(): Promise<EmulatorStats> {
    return this.admin<EmulatorStats>("stats", undefined, "GET");
  }

  /** What the service's Data Limits says of a product's subscribed datasets. */
  limits(product: ProductId): Record<string, { remaining_requests: number; total_requests: number }> {
    const datasets = this.state.catalog
      .datasets(product)
      .filter((dataset) => this.state.isSubscribed(dataset));
    return this.state.quotas.report(product, datasets);
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}

/** The states of docs/taskpane.md's table "The month's states" the browser walk meets. */
export type PaneState = "up" | "maintenance" | "release" | "release published" | "outage" | "unreachable";

export interface StateRow {
  /** The Status tab's sentence (data-testid="service-state"). */
  status: RegExp;
  /** The notice above every tab, which says the Status tab's sentence: none, the downtime's or the outage's. */
  notice: "service-notice" | "outage-notice" | null;
  /** Whether the offer to refresh for a new release is shown (undefined: either). */
  offer?: boolean;
  /** The Usage tab's cost line, when the row says what it is. */
  cost?: RegExp;
  /** What a cell with no cached data says. */
  cell?: RegExp;
}

const AVAILABLE = /^The PCD service is available\. It last answered at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\.$/;

/** docs/taskpane.md, "The month's states": a row per state, in the pane's words. */
export const STATE_ROWS: Readonly<Record<PaneState, StateRow>> = {
  up: { status: AVAILABLE, notice: null },
  maintenance: {
    status: /^The PCD service is in maintenance until .+ \(.+ from now\)\. Cached data stays available\.$/,
    notice: "service-notice",
    offer: false,
    cost: /^No refresh can run during the maintenance \(until .+\); its cost is known once the service is back\./,
    cell: /^The service is down for maintenance until 22:00 US Central Time \(.+ your time\); no cached data for \S+ yet\.( Will try again at \d\d:\d\d UTC\.)?$/,
  },
  release: {
    status:
      /^Release day: the service is closed until the new data is published \(by 22:00 US Central Time at the latest: .+ from now\)\. Cached data stays available\.$/,
    notice: "service-notice",
    offer: false,
    cost: /^No refresh can run before the new data is published \(by 22:00 US Central Time at the latest, .+\); its cost is known then\./,
    cell: /^The service is down for the monthly data release until 22:00 US Central Time at the latest \(.+ your time\); no cached data for \S+ yet\.( Will try again at \d\d:\d\d UTC\.)?$/,
  },
  "release published": { status: AVAILABLE, notice: null, offer: true },
  outage: {
    status:
      /^The PCD service is failing since (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC: it answers HTTP 503, for a cause it did not say; cached values are kept; retrying/,
    notice: "outage-notice",
    offer: false,
    // The call that met the outage may be the token's renewal: "Renewing the access token failed: The service is failing…".
    cell: /(^|: )The service is failing: it answered HTTP 503\b.*Will try again at \d\d:\d\d/,
  },
  unreachable: {
    status:
      /^Can't reach the PCD service since (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC; cached values are kept; retrying/,
    notice: "outage-notice",
    offer: false,
    cell: /could not be reached for .*Will try again at \d\d:\d\d/,
  },
};

/** What the pane says at once: the banners above every tab, the Status tab and the Usage tab's cost. */
export interface PaneReading {
  status: string;
  serviceNotice: string | null;
  outageNotice: string | null;
  offer: string | null;
  refreshFailed: string | null;
  cost: string | null;
  /** Rows of the cost preview's table (datasets a refresh would charge). */
  costRows: number;
}

/** Statements that cannot be true together (release day contradicting itself, green in an outage). */
const CONTRADICTIONS: ReadonlyArray<{
  what: string;
  first: (reading: PaneReading) => boolean;
  second: (reading: PaneReading) => boolean;
}> = [
  {
    what: '"available" with an outage notice',
    first: (r) => r.status.includes("is available"),
    second: (r) => r.outageNotice !== null,
  },
  {
    what: '"available" with a downtime notice',
    first: (r) => r.status.includes("is available"),
    second: (r) => r.serviceNotice !== null,
  },
  {
    what: "closed (a downtime) with the offer of a new release",
    first: (r) => r.serviceNotice !== null || /closed|maintenance/.test(r.status),
    second: (r) => r.offer !== null,
  },
  {
    what: 'closed (a downtime) with "everything is up to date"',
    first: (r) => r.serviceNotice !== null || /closed|maintenance/.test(r.status),
    second: (r) => /everything is up to date/.test(r.cost ?? ""),
  },
  {
    what: 'a monthly release came out with "everything is up to date"',
    first: (r) => r.offer !== null,
    second: (r) => /everything is up to date/.test(r.cost ?? ""),
  },
  {
    what: 'a downtime\'s "its cost is known then" with a cost',
    first: (r) => /its cost is known/.test(r.cost ?? ""),
    second: (r) => r.costRows > 0,
  },
  {
    what: "a downtime notice with an outage notice",
    first: (r) => r.serviceNotice !== null,
    second: (r) => r.outageNotice !== null,
  },
  {
    what: 'a failure of the refresh saying "no cached data" while cells show data',
    first: (r) => /no cached data for this workbook/i.test(r.refreshFailed ?? ""),
    second: () => true,
  },
];

export type DatasetCount = { product: string; dataset: string; requests: number };

/** A cell's state as the grid shows it. */
interface ShownCell {
  text: string;
  error: { code: string; message: string } | null;
  busy: boolean;
}

export interface StepCalls {
  step: string;
  counts: Record<Operation, number>;
  /** Previews and refreshes the user asked for in the step (a release-day probe answers one). */
  userActions: number;
  /** The announced downtime the step lives in, if any. */
  downtime?: DowntimeKind;
}

/**
 * The walk's state and its checks. Each check is a method named after its invariant; a
 * broken one adds `invariant "<name>" broke at step "<step>": <what was seen>`.
 */
export class BrowserMonth {
  readonly broken: string[] = [];
  readonly calls: StepCalls[] = [];
  readonly book: ReturnType<typeof monthWorkbook>;
  /** The anchors of the workbook's cells (formulas with data cached once the first day settled). */
  readonly cells = new Map<string, string>();
  private probes: string[];
  private probeRow = 1;
  private stepName = "start";
  private stepStats: EmulatorStats | undefined;
  private userActions = 0;
  private stepDowntime: DowntimeKind | undefined;

  /**
   * `rows`: the pane's words for each state, docs/taskpane.md's table by default; a member
   * signed in through a team gateway reads the gateway's rows of that table.
   */
  constructor(
    readonly lab: ServiceLab,
    readonly preview: PreviewPage,
    private readonly rows: Readonly<Record<PaneState, StateRow>> = STATE_ROWS,
  ) {
    this.book = monthWorkbook(lab);
    this.probes = [...this.book.probes];
  }

  get page(): Page {
    return this.preview.page;
  }

  private fail(invariant: string, detail: string): void {
    this.broken.push(`invariant "${invariant}" broke at step "${this.stepName}": ${detail}`);
  }

  // ---- time and steps -------------------------------------------------------------------

  /**
   * Starts a step: with the page quiet and its clock paused, the call counts start, the
   * emulator's clock moves to the step's instant and the change at the service happens; then
   * the page's clock follows. While paused no page timer can fire, so no call reaches the
   * service in its new time from a page still in the old one.
   */
  async step(
    name: string,
    at: string,
    options: { downtime?: DowntimeKind; change?: () => Promise<unknown> } = {},
  ): Promise<void> {
    await this.endStep();
    this.stepName = name;
    this.userActions = 0;
    this.stepDowntime = options.downtime;
    await this.jumpTo(Date.parse(at), async () => {
      this.stepStats = await this.lab.stats();
      await this.lab.admin("clock", { now: at });
      await options.change?.();
    });
    await this.quiet();
  }

  /** Ends the current step: its calls are counted and judged. */
  async endStep(): Promise<void> {
    if (this.stepStats === undefined) return;
    await this.quiet();
    const after = await this.lab.stats();
    const counts = Object.fromEntries(
      OPERATIONS.map((operation) => [
        operation,
        (after.calls[operation] ?? 0) - (this.stepStats?.calls[operation] ?? 0),
      ]),
    ) as Record<Operation, number>;
    const record: StepCalls = {
      step: this.stepName,
      counts,
      userActions: this.userActions,
      downtime: this.stepDowntime,
    };
    this.calls.push(record);
    this.stepStats = undefined;
    this.noCallLoop(record);
    if (record.downtime !== undefined) this.noCallInAnnouncedDowntime(record);
  }

  /**
   * The page lives `ms` on with its timers firing, in chunks of `chunkMs` (each chunk fires
   * what is due once; the answers come in before the next chunk).
   */
  async live(ms: number, chunkMs = 60_000): Promise<void> {
    for (let done = 0; done < ms; done += chunkMs) {
      const pageNow = await this.page.evaluate(() => Date.now());
      await this.jumpTo(pageNow + Math.min(chunkMs, ms - done));
    }
    await this.quiet();
  }

  /**
   * Moves the page's clock to `target` with the timers due by then firing. A jump with work
   * under way would fire that work's own timeout, so once the page is quiet its clock is
   * paused (a moment ahead: PAUSE_LEAD_MS), its timers run a moment further (PAUSED_RUN_MS),
   * and the page is looked at again: work a timer started since the last look shows there (a
   * fetch or a transaction counts from its first line), and while paused no timer can start
   * more before the jump. `whilePaused` runs then, once, with the page quiet and still (a step
   * moves the service's clock there). A target the page has passed leaves its clock where it is.
   */
  private async jumpTo(target: number, whilePaused?: () => Promise<void>): Promise<void> {
    const until = Date.now() + QUIET_WAIT_MS;
    for (;;) {
      await this.quiet();
      const pageNow = await this.page.evaluate(() => Date.now());
      // pauseAt moves the clock to the time given before it stops it: only a moment ahead, so
      // the jump itself waits for the look below.
      await this.page.clock.pauseAt(pageNow + PAUSE_LEAD_MS);
      // A timer the pause fired may have started work that goes on only after a timer of its
      // own (the request gate grants a slot after a zero-delay timer, spaced from the call
      // before): the paused clock would hold that work out of sight until the jump, and it
      // would then reach the service in its new time from a page that checked the old one.
      // Running the page's timers a moment further lets it start, where the look below sees it.
      await this.page.clock.runFor(PAUSED_RUN_MS);
      const seen = await this.pageState();
      if (seen.idle) {
        await whilePaused?.();
        const paused = await this.page.evaluate(() => Date.now());
        if (target > paused) await this.page.clock.fastForward(target - paused);
      }
      await this.page.clock.resume();
      if (seen.idle) return;
      if (Date.now() > until) {
        throw new Error(
          `The paused page did not stay quiet within ${QUIET_WAIT_MS / 1000} s at step "${this.stepName}": ${seen.summary}`,
        );
      }
    }
  }

  /**
   * Waits until the page sends nothing more for a moment: no fetch without its whole answer,
   * no IndexedDB work unfinished, no cell busy, and the emulator's counts the same over two
   * reads. Throws when that takes more than QUIET_WAIT_MS.
   */
  async quiet(): Promise<void> {
    const until = Date.now() + QUIET_WAIT_MS;
    let last = JSON.stringify((await this.lab.stats()).calls);
    let seen: PageState | undefined;
    while (Date.now() < until) {
      await sleep(QUIET_ROUND_MS);
      const now = JSON.stringify((await this.lab.stats()).calls);
      seen = await this.pageState();
      if (now === last && seen.idle) return;
      last = now;
    }
    throw new Error(
      `The page did not go quiet within ${QUIET_WAIT_MS / 1000} s at step "${this.stepName}": ` +
        `${seen?.summary ?? "not read"}, the emulator's calls ${last}`,
    );
  }

  /** What the page has under way: busy cells, fetches and IndexedDB work (page-activity.ts). */
  private async pageState(): Promise<PageState> {
    const { busy, fetches, storage } = await this.page.evaluate(
      (addresses) => ({
        busy: addresses.filter((address) => window.__pcdPreview.cell(address).busy),
        ...window.__pcdPreview.underWay(),
      }),
      [...this.cells.keys(), ...this.probeAddresses()],
    );
    return {
      idle: busy.length === 0 && fetches === 0 && storage === 0,
      summary: `busy cells [${busy.join(", ")}], ${fetches} fetches and ${storage} IndexedDB openings or transactions under way`,
    };
  }

  async shoot(name: string): Promise<void> {
    // The pane from its top: the notices and the tab shown (a check may have scrolled it).
    await this.preview.pane.getByRole("tablist", { name: "PCD areas" }).scrollIntoViewIfNeeded();
    await screenshot(this.page, `month-${name}`);
  }

  // ---- the user -------------------------------------------------------------------------

  /** Types a formula into a cell and waits for its first result (a value or an error). */
  async enter(address: string, formula: string): Promise<ShownCell> {
    await this.page.evaluate(({ cell, text }) => window.__pcdPreview.enter(cell, text), {
      cell: address,
      text: formula,
    });
    await this.page.waitForFunction(
      (cell) => {
        const shown = window.__pcdPreview.cell(cell);
        return !shown.busy && (shown.text !== "" || shown.error !== null);
      },
      address,
      { timeout: 20_000 },
    );
    return this.cell(address);
  }

  /** The workbook's cells of the first day (a table, a latest value, other products). */
  async enterWorkbook(): Promise<void> {
    const [x, xOld, y, , yNarrow, z, w] = this.book.formulas;
    const code = (formula: string | undefined): string => /"([^"]+)"/.exec(formula ?? "")?.[1] ?? "";
    const cells: Array<[string, string]> = [
      // A table of finals since January, newest first, headers: a release adds a month on top.
      ["A1", `=PCD.VALUES("${code(x)}",,,"2026-01",,1,0,1)`],
      ["D1", xOld ?? ""],
      ["D2", y ?? ""],
      ["D3", z ?? ""],
      ["D4", w ?? ""],
      ["E1", yNarrow ?? ""],
    ];
    for (const [address, formula] of cells) {
      this.cells.set(address, formula);
      await this.enter(address, formula);
    }
  }

  /** A formula on a code no cell asked for yet (column H), as a user types during the month. */
  async enterProbe(): Promise<string> {
    const code = this.probes.shift();
    if (code === undefined) throw new Error("the month workbook has no more probe codes");
    const address = `H${this.probeRow}`;
    this.probeRow += 1;
    await this.page.evaluate(() => window.__pcdPreview.select("H1"));
    await this.enter(address, `=PCD.VALUE("${code}")`);
    return address;
  }

  private probeAddresses(): string[] {
    return Array.from({ length: this.probeRow - 1 }, (_, index) => `H${index + 1}`);
  }

  async cell(address: string): Promise<ShownCell> {
    return this.page.evaluate((cell) => window.__pcdPreview.cell(cell), address);
  }

  async openTab(name: "Status" | "Usage" | "Series"): Promise<void> {
    await this.preview.pane.getByRole("tab", { name }).click();
    // Opening the Usage tab asks for the cost preview with the catalogs read again.
    if (name === "Usage") this.userActions += 1;
  }

  /** Leaves the Usage tab and opens it again (a new look: its preview reads the catalogs). */
  async lookAtUsage(): Promise<void> {
    await this.openTab("Status");
    await this.openTab("Usage");
    await this.preview.pane.getByTestId("refresh-cost").waitFor({ timeout: CHECK_WAIT_MS });
  }

  /** Clicks Refresh all in the Usage tab and waits for its summary or its failure. */
  async refreshAll(): Promise<"summary" | "failed"> {
    const section = this.preview.pane.getByRole("region", { name: "Refresh this workbook" });
    this.userActions += 1;
    await section.getByRole("button", { name: "Refresh all" }).click();
    const summary = section.getByTestId("refresh-summary");
    const failed = section.getByTestId("refresh-failed");
    await summary.or(failed).first().waitFor({ timeout: 30_000 });
    return (await summary.count()) > 0 ? "summary" : "failed";
  }

  // ---- reading the pane -----------------------------------------------------------------

  private async textOf(testId: string): Promise<string | null> {
    const found = this.preview.pane.getByTestId(testId);
    if ((await found.count()) === 0) return null;
    return ((await found.first().textContent()) ?? "").trim();
  }

  /** Status tab's sentence, the banners, the refresh failure and the Usage tab's cost line. */
  async readPane(): Promise<PaneReading> {
    await this.openTab("Status");
    const status = (await this.textOf("service-state")) ?? "";
    const banners = {
      serviceNotice: await this.textOf("service-notice"),
      outageNotice: await this.textOf("outage-notice"),
      offer: await this.textOf("refresh-offer"),
    };
    await this.openTab("Usage");
    await this.preview.pane.getByTestId("refresh-cost").waitFor({ timeout: CHECK_WAIT_MS });
    return {
      status: firstSentences(status),
      ...banners,
      refreshFailed: await this.textOf("refresh-failed"),
      cost: await this.textOf("refresh-cost"),
      costRows: await this.preview.pane.getByTestId("refresh-cost-row").count(),
    };
  }

  // ---- the checks -----------------------------------------------------------------------

  /**
   * "Status and the notices match the state's row" (docs/taskpane.md, the month's states):
   * the Status tab's sentence, the one notice above every tab that repeats it, the offer,
   * the Usage tab's cost line. The pane may take a moment to read the state: the check waits
   * (real time, bounded) for the row, and fails with what the pane said last.
   */
  async paneMatchesState(state: PaneState): Promise<PaneReading> {
    const row = this.rows[state];
    const misses = (reading: PaneReading): string[] => {
      const wrong: string[] = [];
      if (!row.status.test(reading.status)) wrong.push(`Status says "${reading.status}"`);
      const notices = { "service-notice": reading.serviceNotice, "outage-notice": reading.outageNotice };
      for (const [notice, text] of Object.entries(notices)) {
        if (notice === row.notice) {
          if (text === null) wrong.push(`no ${notice}`);
          else if (!text.startsWith(reading.status.slice(0, 40)))
            wrong.push(`the ${notice} says "${text}", not the Status tab's sentence`);
        } else if (text !== null) wrong.push(`a ${notice} says "${text}"`);
      }
      if (row.offer === true && reading.offer === null) wrong.push("no offer to refresh for the new release");
      if (row.offer === false && reading.offer !== null) wrong.push(`the offer is shown: "${reading.offer}"`);
      if (row.cost && !row.cost.test(reading.cost ?? "")) wrong.push(`the cost line says "${reading.cost}"`);
      return wrong;
    };
    const reading = await pollUntil(
      () => this.readPane(),
      (read) => misses(read).length === 0,
    );
    const wrong = misses(reading);
    if (wrong.length > 0) this.fail(`the pane tells the state "${state}"`, wrong.join("; "));
    this.noContradiction(reading);
    return reading;
  }

  /** "No two contradicting statements at once." */
  noContradiction(reading: PaneReading): void {
    for (const rule of CONTRADICTIONS) {
      if (rule.first(reading) && rule.second(reading)) {
        this.fail("no two contradicting statements", `${rule.what}: ${JSON.stringify(reading)}`);
      }
    }
  }

  /**
   * "A cell with no cached data names the state": its message is the state's row, and the
   * cells with cached data keep their values.
   */
  async cellsTellState(state: PaneState, uncached: string): Promise<void> {
    const row = this.rows[state];
    const shown = await this.cell(uncached);
    const message = shown.error?.message ?? "";
    if (row.cell && !row.cell.test(message)) {
      this.fail(
        `a cell with no cached data names the state "${state}"`,
        `${uncached} shows ${shown.error ? `${shown.error.code} "${message}"` : `the value "${shown.text}"`} (named: ${classOfMessage(message)})`,
      );
    }
    for (const [address, formula] of this.cells) {
      const cached = await this.cell(address);
      if (cached.error !== null || cached.text === "") {
        this.fail(
          `cells with cached data keep showing it (state "${state}")`,
          `${address} ${formula}: ${cached.error ? `${cached.error.code} ${cached.error.message}` : "empty"}`,
        );
      }
    }
  }

  /**
   * "Every cell settles after the service is back": SETTLE_MS (month-script.ts) after the
   * service came back, with no user action, each cell shows a value.
   */
  async cellsSettle(): Promise<void> {
    await this.live(SETTLE_MS, 5 * 60_000);
    const addresses = [...this.cells.keys(), ...this.probeAddresses()];
    const unsettled = async (): Promise<string[]> => {
      const shown = await this.page.evaluate(
        (list) => list.map((address) => ({ address, ...window.__pcdPreview.cell(address) })),
        addresses,
      );
      return shown
        .filter((cell) => cell.busy || cell.error !== null || cell.text === "")
        .map(
          (cell) =>
            `${cell.address}: ${cell.busy ? "busy " : ""}${cell.error ? `${cell.error.code} ${cell.error.message}` : cell.text}`,
        );
    };
    const left = await pollUntil(unsettled, (cells) => cells.length === 0);
    if (left.length > 0) {
      this.fail(
        `every cell settles to a value within ${SETTLE_MS / 60_000} min after the service is back`,
        left.join(" | "),
      );
    }
  }

  /** "No call during announced downtime but the documented probes." */
  private noCallInAnnouncedDowntime(record: StepCalls): void {
    for (const operation of OPERATIONS) {
      const count = record.counts[operation];
      const allowed = DOCUMENTED_PROBES.filter(
        (probe) => probe.operation === operation && probe.window === record.downtime,
      ).reduce((sum, probe) => sum + probe.perUserAction * record.userActions, 0);
      if (count > allowed) {
        this.broken.push(
          `invariant "no call during announced downtime except documented probes" broke at step "${record.step}": ` +
            `${count} ${operation} calls in the ${record.downtime} window where ${allowed} are documented probes ` +
            `(${record.userActions} previews or refreshes asked for)`,
        );
      }
    }
  }

  /** "No loop": at most MAX_CALLS_PER_OPERATION_PER_HOUR calls of an operation in a step. */
  private noCallLoop(record: StepCalls): void {
    for (const operation of OPERATIONS) {
      if (record.counts[operation] > MAX_CALLS_PER_OPERATION_PER_HOUR) {
        this.broken.push(
          `invariant "at most ${MAX_CALLS_PER_OPERATION_PER_HOUR} calls per operation per step (no loop)" broke at step "${record.step}": ` +
            `${record.counts[operation]} ${operation} calls`,
        );
      }
    }
  }

  /** The allowance bars of the Usage tab, every product expanded: product, dataset, what is left. */
  private async usageShown(): Promise<
    Array<{ product: ProductId | undefined; dataset: string; remaining: number }>
  > {
    const region = this.preview.pane.getByRole("region", { name: "Data limits" });
    await region.locator("[data-dataset]").first().waitFor({ timeout: CHECK_WAIT_MS });
    const closed = region.locator('button[aria-expanded="false"]');
    for (let opened = 0; opened < 8 && (await closed.count()) > 0; opened += 1) await closed.first().click();
    const rows = await region.locator("[data-dataset]").evaluateAll((elements) =>
      elements.map((element) => ({
        dataset: element.getAttribute("data-dataset") ?? "",
        remaining: Number(element.getAttribute("data-remaining")),
        label: element.querySelector("[role=progressbar]")?.getAttribute("aria-label") ?? "",
      })),
    );
    return rows.map((row) => ({
      product: PRODUCTS.find((product) =>
        row.label.startsWith(`${PRODUCT_LABELS[product]}, ${row.dataset}:`),
      ),
      dataset: row.dataset,
      remaining: row.remaining,
    }));
  }

  /**
   * "Usage equals the service's Data Limits": every allowance bar of the Usage tab says what
   * the service's Data Limits says, and the workbook's datasets are among them.
   */
  async usageIsDataLimits(when: string): Promise<void> {
    await this.openTab("Usage");
    const misses = async (): Promise<string[]> => {
      const shown = await this.usageShown();
      const wrong: string[] = [];
      for (const row of shown) {
        const service = row.product && this.lab.limits(row.product)[row.dataset]?.remaining_requests;
        if (service !== row.remaining) {
          wrong.push(
            `${row.product ?? "(no product named)"}/${row.dataset}: Usage says ${row.remaining} left, the service ${String(service)}`,
          );
        }
      }
      if ((await this.preview.pane.getByTestId("usage-workbook").count()) === 0) {
        wrong.push("the workbook's datasets are not shown");
      }
      return wrong;
    };
    const wrong = await pollUntil(misses, (found) => found.length === 0);
    if (wrong.length > 0)
      this.fail(`Usage equals the service's Data Limits ${when}`, wrong.slice(0, 6).join("; "));
  }

  /** "Reload reads Data Limits again": the Usage tab's Reload makes a Data Limits call. */
  async reloadRereads(): Promise<void> {
    await this.openTab("Usage");
    await this.quiet();
    const before = (await this.lab.stats()).calls.data_limits ?? 0;
    await this.preview.pane
      .getByRole("region", { name: "Data limits" })
      .getByRole("button", { name: "Reload" })
      .click();
    const after = await pollUntil(
      async () => (await this.lab.stats()).calls.data_limits ?? 0,
      (calls) => calls !== before,
    );
    if (after === before) this.fail("Reload reads Data Limits again", "no Data Limits call after Reload");
    await this.usageIsDataLimits("after Reload");
  }

  /** The cost preview's rows as shown: product (when the label names it, else the only one charged), dataset, requests. */
  async costPreview(): Promise<{ rows: Array<{ label: string; requests: number }>; total: number }> {
    const cost = this.preview.pane.getByTestId("refresh-cost");
    // The preview shown, not one still being worked out: no "Checking the catalog…", and the
    // same text over two reads.
    await this.quiet();
    let last = "";
    const settled = await pollUntil(
      async () => {
        const checking = await this.preview.pane.getByText("Checking the catalog…").count();
        const text = (await cost.textContent()) ?? "";
        const steady = checking === 0 && text === last;
        last = text;
        return steady;
      },
      (steady) => steady,
    );
    if (!settled) {
      throw new Error(
        `The cost preview did not settle within ${CHECK_WAIT_MS / 1000} s; it last said: ${last}`,
      );
    }
    const rows = await cost.getByTestId("refresh-cost-row").evaluateAll((elements) =>
      elements.map((element) => {
        const cells = element.querySelectorAll("td");
        return { label: cells[0]?.textContent ?? "", requests: Number(cells[1]?.textContent) };
      }),
    );
    // No table: the preview says refreshing costs nothing, or that none can run now (checked, so
    // a changed wording fails).
    if ((await cost.locator("caption").count()) === 0) {
      if (!/costs no data requests|No refresh can run/.test(last)) {
        throw new Error(`The cost preview shows no table and does not say it costs nothing: ${last}`);
      }
      return { rows, total: 0 };
    }
    const caption = (await cost.locator("caption").textContent()) ?? "";
    // Signed in directly the refresh "uses" data requests; through a team gateway it "asks your
    // team's gateway for" them (kept series cost the team nothing).
    const total = /(?:uses|asks your team's gateway for) (\d+) data request/.exec(caption)?.[1];
    if (total === undefined) throw new Error(`The cost preview's caption names no data requests: ${caption}`);
    return { rows, total: Number(total) };
  }

  /**
   * "The cost preview equals what the refresh charged": per dataset (and product, where the
   * preview names it), and in total, against the emulator's charged data requests.
   */
  previewIsCharge(
    preview: { rows: Array<{ label: string; requests: number }>; total: number },
    before: EmulatorStats,
    after: EmulatorStats,
  ): void {
    const charged: DatasetCount[] = [];
    for (const [product, datasets] of Object.entries(after.dataRequestsByProduct)) {
      for (const [dataset, total] of Object.entries(datasets)) {
        const requests = total - (before.dataRequestsByProduct[product]?.[dataset] ?? 0);
        if (requests !== 0) charged.push({ product, dataset, requests });
      }
    }
    const labelOf = (count: DatasetCount): string => {
      const named = preview.rows.some(
        (row) => row.label === `${count.dataset} (${PRODUCT_LABELS[count.product as ProductId]})`,
      );
      return named ? `${count.dataset} (${PRODUCT_LABELS[count.product as ProductId]})` : count.dataset;
    };
    const said = (rows: Array<{ label: string; requests: number }>): string =>
      rows
        .map((row) => `${row.label} ${row.requests}`)
        .sort()
        .join(", ") || "nothing";
    const chargedText = said(charged.map((count) => ({ label: labelOf(count), requests: count.requests })));
    const chargedTotal = charged.reduce((sum, count) => sum + count.requests, 0);
    if (said(preview.rows) !== chargedText || preview.total !== chargedTotal) {
      this.fail(
        "the cost preview shown before Refresh all equals what the refresh charged",
        `the preview said ${said(preview.rows)} (total ${preview.total}); the refresh charged ${chargedText} (total ${chargedTotal})`,
      );
    }
  }
}

/** The Status tab's sentence without the "Last error: …" caption under it. */
function firstSentences(text: string): string {
  const at = text.indexOf("Last error:");
  return (at === -1 ? text : text.slice(0, at)).trim();
}
