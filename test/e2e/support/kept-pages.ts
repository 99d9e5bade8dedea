// The browser pages a test file's tests open, kept for the next test instead of closed: a new
// browser context starts a renderer process and loads the page cold (about 2 CPU-seconds a
// page, measured), loading it again in a page that is already there about 1. Between tests
// a page is taken back to a blank document and its site's data (IndexedDB, local storage,
// cookies, caches) is deleted, so a test still starts as on a computer that never ran PCD.
// What a page keeps is what a person's browser keeps too: its HTTP cache of the add-in's files
// (the test server's files carry validators, scripts/static-server.ts, so a page opened again
// revalidates them and runs its scripts with V8's cached code).
// Tests that need two panes at once get two pages, each in a browser context of its own.
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { newTestContext } from "./browser";

export interface PageSetup {
  width: number;
  height: number;
  /** The page's clock (the engine's schedule reads it), time flowing on from here; else the real one. */
  now?: Date;
}

/** One page a test holds: what the page reported as broken goes into `errors`. */
export interface HeldPage {
  page: Page;
  /** Uncaught page errors and content security policy violations while this test held it. */
  errors: string[];
  /** Gives the page back: its site data is deleted, and the next test may take it. */
  release(): Promise<void>;
}

interface KeptPage {
  context: BrowserContext;
  page: Page;
  devtools: CDPSession;
  /** The errors array of the test holding the page; none while the page waits. */
  holder: string[] | null;
}

export class KeptPages {
  private readonly waiting: KeptPage[] = [];
  private readonly all = new Set<KeptPage>();

  constructor(
    private readonly browser: Browser,
    /** The origin whose data a page leaves behind (the add-in's site). */
    private readonly siteOrigin: string,
  ) {}

  async take(setup: PageSetup): Promise<HeldPage> {
    const kept = this.waiting.pop() ?? (await this.newPage(setup));
    await kept.page.setViewportSize({ width: setup.width, height: setup.height });
    // The clock's script replays on every document of the context: the time set last wins.
    if (setup.now) await kept.context.clock.setSystemTime(setup.now);
    const errors: string[] = [];
    kept.holder = errors;
    return { page: kept.page, errors, release: () => this.giveBack(kept) };
  }

  async close(): Promise<void> {
    const contexts = [...this.all].map((kept) => kept.context.close().catch(() => undefined));
    this.all.clear();
    this.waiting.length = 0;
    await Promise.all(contexts);
  }

  private async newPage(setup: PageSetup): Promise<KeptPage> {
    const context = await newTestContext(this.browser, {
      viewport: { width: setup.width, height: setup.height },
    });
    const page = await context.newPage();
    const devtools = await context.newCDPSession(page);
    const kept: KeptPage = { context, page, devtools, holder: null };
    page.on("pageerror", (error) => kept.holder?.push(error.message));
    // The page's content security policy must hold: no inline script, no eval, no stray origin.
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) kept.holder?.push(message.text());
    });
    if (setup.now) {
      await context.clock.install({ time: setup.now });
      await context.clock.resume();
    }
    this.all.add(kept);
    return kept;
  }

  private async giveBack(kept: KeptPage): Promise<void> {
    kept.holder = null;
    if (!this.all.has(kept)) return;
    try {
      await kept.page.unrouteAll({ behavior: "ignoreErrors" });
      await kept.context.unrouteAll({ behavior: "ignoreErrors" });
      await kept.context.setOffline(false);
      for (const other of kept.context.pages()) if (other !== kept.page) await other.close();
      // Session storage lives with the tab, which stays: cleared from the page itself.
      await kept.page.evaluate(() => sessionStorage.clear()).catch(() => undefined);
      // A blank document first: the add-in's timers stop and its database connections close,
      // so nothing writes into the site's storage after it is deleted.
      await kept.page.goto("about:blank");
      await kept.devtools.send("Storage.clearDataForOrigin", {
        origin: this.siteOrigin,
        storageTypes: "all",
      });
      this.waiting.push(kept);
    } catch {
      // A page that cannot be cleaned is not used again.
      this.all.delete(kept);
      await kept.context.close().catch(() => undefined);
    }
  }
}
