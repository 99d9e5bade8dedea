import { until } from "./until";

describe("until", () => {
  it("returns the first reading for which the condition holds", async () => {
    let reads = 0;
    const value = await until(
      () => ++reads,
      (count) => count === 3,
      "the third read",
    );
    expect([value, reads]).toEqual([3, 3]);
  });

  it("fails naming what it waited for and the last reading once the limit has passed", async () => {
    await expect(
      until(
        () => "never",
        (text) => text === "done",
        "a signal",
        { timeoutMs: 5 },
      ),
    ).rejects.toThrow('Waited 0.005 s for a signal; last read: "never"');
  });
});
