import { classifyFetchRejection } from "../../src/core/http/fetch-rejection";
import { CORS_HINT, explainBlockedFetch } from "../../src/host/blocked-fetch";
import { toCellError } from "../../src/functions/cell-errors";
import { signInErrorMessage } from "../../src/taskpane/messages";

const PAGE = "https://addin.example.org";

function failingWith(error: unknown) {
  const seen: string[] = [];
  const fetchImpl = explainBlockedFetch(async (input) => {
    seen.push(input);
    throw error;
  }, PAGE);
  return { fetchImpl, seen };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("explainBlockedFetch", () => {
  test.each([
    ["Chromium", "Failed to fetch"],
    ["Safari", "Load failed"],
    ["Firefox", "NetworkError when attempting to fetch resource."],
  ])("%s's answerless failure against another origin names CORS and the proxy", async (_browser, text) => {
    const { fetchImpl } = failingWith(new TypeError(text));
    const error = await rejection(fetchImpl("https://api.pcd.example/access_token/v1"));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(CORS_HINT);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  test.each<[string, string, unknown]>([
    ["the same origin (the proxy)", `${PAGE}/service/access_token/v1`, new TypeError("Failed to fetch")],
    ["a relative address", "/service/access_token/v1", new TypeError("Failed to fetch")],
    [
      "a cancellation",
      "https://api.pcd.example/x",
      new DOMException("The operation was aborted.", "AbortError"),
    ],
    ["Node's own failure", "https://api.pcd.example/x", new TypeError("fetch failed")],
  ])("leaves %s as it was", async (_case, url, original) => {
    const { fetchImpl } = failingWith(original);
    await expect(fetchImpl(url)).rejects.toBe(original);
  });

  test("after the service answered once, an answerless failure is an outage, not CORS", async () => {
    let down = false;
    const answer = new Response("{}", { status: 200 });
    const dropped = new TypeError("Failed to fetch");
    const fetchImpl = explainBlockedFetch(async () => {
      if (down) throw dropped;
      return answer;
    }, PAGE);
    await expect(fetchImpl("https://api.pcd.example/access_token/v1")).resolves.toBe(answer);
    down = true;
    await expect(fetchImpl("https://api.pcd.example/energy_price/v1/export/series/A")).rejects.toBe(dropped);
    // Another origin that never answered still gets the hint.
    const other = await rejection(fetchImpl("https://gateway.pcd-vendor.example/pcd"));
    expect((other as Error).message).toBe(CORS_HINT);
  });

  test("answers pass through untouched", async () => {
    const answer = new Response("{}", { status: 200 });
    const fetchImpl = explainBlockedFetch(async () => answer, PAGE);
    await expect(fetchImpl("https://api.pcd.example/x")).resolves.toBe(answer);
  });
});

describe("what the user reads", () => {
  const blocked = async (): Promise<unknown> =>
    rejection(
      failingWith(new TypeError("Failed to fetch")).fetchImpl("https://gateway.pcd-vendor.example/pcd"),
    );

  test("a cell names CORS and the proxy within Excel's 255 characters", async () => {
    const failure = classifyFetchRejection(await blocked(), {
      operation: "series_values",
      url: "https://gateway.pcd-vendor.example/pcd/energy_price/v1/export/series/A",
      timedOutAfterMs: null,
    });
    const cell = toCellError(failure);
    expect(cell.type).toBe("#N/A");
    expect(cell.message).toMatch(/gateway\.pcd-vendor\.example.*CORS/);
    // The whole hint survives Excel's cut (only the generic advice after it may go).
    expect(cell.message).toContain(CORS_HINT);
  });

  test("the pane's sign-in message names CORS and docs/deploy.md", async () => {
    const failure = classifyFetchRejection(await blocked(), {
      operation: "access_token",
      url: "https://api.pcd.example/access_token/v1",
      timedOutAfterMs: null,
    });
    const text = signInErrorMessage(failure, "https://api.pcd.example");
    expect(text).toMatch(/could not be reached \(.*CORS.*--proxy-to, docs\/deploy\.md\)/);
  });
});
