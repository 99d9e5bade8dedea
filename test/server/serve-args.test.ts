import { DEFAULT_PORT, parseServeArgs } from "../../src/server/serve-args";

test("defaults: 127.0.0.1:8080 (beside npm start's 3000 and 3001), dist/, no relay, no TLS", () => {
  expect(parseServeArgs([])).toEqual({
    port: DEFAULT_PORT,
    host: "127.0.0.1",
    dist: "dist",
    proxyTo: undefined,
    cert: undefined,
    key: undefined,
  });
  expect(DEFAULT_PORT).toBe(8080);
});

test("every flag", () => {
  const options = parseServeArgs([
    "--port",
    "0",
    "--host",
    "0.0.0.0",
    "--dist",
    "build",
    "--proxy-to",
    "https://gateway.example/pcd",
    "--cert",
    "c.pem",
    "--key",
    "k.pem",
  ]);
  expect(options).toMatchObject({ port: 0, host: "0.0.0.0", dist: "build", cert: "c.pem", key: "k.pem" });
  expect(options.proxyTo?.href).toBe("https://gateway.example/pcd");
});

test.each([
  [["--port", "http"], /--port expects a port number/],
  [["--port", "70000"], /--port expects a port number/],
  [["--proxy-to", "gateway.example"], /--proxy-to expects the service's address/],
  [["--proxy-to", "ftp://gateway.example"], /http\(s\) address/],
  [["--proxy-to", "https://user:pw@gateway.example"], /credentials/],
  [["--proxy-to", "https://gateway.example/?to=x"], /a query/],
  [["--cert", "c.pem"], /--cert and --key go together/],
  [["--key", "k.pem"], /--cert and --key go together/],
  [["--verbose"], /Unknown option '--verbose'/],
])("%j is refused, naming the flag", (argv, message) => {
  expect(() => parseServeArgs(argv)).toThrow(message);
});
