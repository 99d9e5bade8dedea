// Only HTTPS service addresses are accepted, except the local machine: a token and a
// password must never travel in clear text to another host. Checked where a user or a
// host can set an address: createEngine's start-up settings and updateSettings.
import { createEngine } from "../../src/core/engine";
import type { EngineSettings } from "../../src/core/engine-api";
import { MemoryStorage } from "../../src/core/storage";

const WORKING_ADDRESS = "http://127.0.0.1:3001";

function engineWith(settings: Partial<EngineSettings> = {}) {
  return createEngine(
    {
      fetch: () => Promise.reject(new Error("no network in this test")),
      storage: new MemoryStorage(),
      clock: { now: () => Date.UTC(2026, 10, 10, 18) },
    },
    { settings, defaults: { baseUrl: WORKING_ADDRESS, authUrl: WORKING_ADDRESS } },
  );
}

const ACCEPTED: Array<[string, string]> = [
  ["an https address", "https://api.pcd.example"],
  ["an https address with a port and path", "https://api.pcd.example:8443/pcd"],
  ["localhost over http", "http://localhost:3001"],
  ["127.0.0.1 over http", "http://127.0.0.1:3001"],
  ["[::1] over http", "http://[::1]:3001"],
];

const REFUSED: Array<[string, unknown, RegExp]> = [
  ["plain http to another host", "http://api.pcd.example", /must use https/],
  ["a host that only starts like localhost", "http://localhost.evil.example", /must use https/],
  ["a host that only starts like 127.0.0.1", "http://127.0.0.1.nip.io", /must use https/],
  ["another private address", "http://192.168.1.10:3001", /must use https/],
  ["0.0.0.0", "http://0.0.0.0:3001", /must use https/],
  ["ftp", "ftp://api.pcd.example", /must use https/],
  ["a file address", "file:///etc/passwd", /must use https/],
  ["javascript:", "javascript:alert(1)", /must use https/],
  ["a data address", "data:text/plain,hello", /must use https/],
  [
    "credentials in the address",
    "https://user:secret@api.pcd.example",
    /must not contain a user name or password/,
  ],
  ["a query", "https://api.pcd.example/?redirect=http://evil", /must not contain a query/],
  ["a fragment", "https://api.pcd.example/#x", /must not contain a query \(\?\) or fragment/],
  ["not an address", "api.pcd.example", /is not a valid address/],
  ["empty", "", /an address is required/],
  ["a number", 443, /an address is required/],
];

describe.each(["baseUrl", "authUrl"] as const)("%s", (field) => {
  test.each(ACCEPTED)("accepts %s", async (_case, address) => {
    const engine = engineWith({ [field]: address });
    expect(engine.getSettings()[field]).toBe(address.replace(/\/+$/, ""));
    await expect(engineWith().updateSettings({ [field]: address })).resolves.toMatchObject({
      [field]: address,
    });
  });

  test.each(REFUSED)(
    "refuses %s, at start-up and when changed, naming the setting",
    async (_case, address, reason) => {
      const patch = { [field]: address } as Partial<EngineSettings>;
      expect(() => engineWith(patch)).toThrow(
        expect.objectContaining({ kind: "input", message: expect.stringMatching(reason) }),
      );
      const engine = engineWith();
      await expect(engine.updateSettings(patch)).rejects.toMatchObject({
        kind: "input",
        message: expect.stringMatching(new RegExp(`^Invalid setting ${field}: `)),
      });
      // A refused change leaves the working address in place.
      expect(engine.getSettings()[field]).toBe(WORKING_ADDRESS);
    },
  );
});
