// The lanes' environment ends a Jest worker at once when Jest says the run is over and nothing
// is left to do, and leaves a worker that still holds something (Jest then reports the leak).
// Checked on a Node process of its own, told the end as jest-worker tells its workers.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const LaneEnvironment = require("./lane-environment") as { nothingLeftToDo(resources: string[]): boolean };

const ENVIRONMENT = path.join(__dirname, "lane-environment.js");
/** The test file the forked worker says it ran last. */
const LEAKY_FILE = path.join(process.cwd(), "test", "leaky.test.ts");
/** jest-worker's "end" message. */
const END = [2];

test.each<[string, boolean, string[]]>([
  ["its channel to Jest and its output pipes", true, ["PipeWrap", "PipeWrap", "PipeWrap"]],
  ["a terminal for its output", true, ["PipeWrap", "TTYWrap"]],
  ["nothing at all", true, []],
  ["a timer", false, ["PipeWrap", "Timeout"]],
  ["a socket", false, ["PipeWrap", "TCPSocketWrap"]],
  ["a child process", false, ["PipeWrap", "ProcessWrap"]],
  ["a file read under way", false, ["PipeWrap", "FSReqCallback"]],
])("a worker holding %s has nothing left to do: %s", (_case, idle, resources) => {
  expect(LaneEnvironment.nothingLeftToDo(resources)).toBe(idle);
});

/** Every process started here, ended after each test whatever its outcome (a failed wait too). */
const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill();
});

/**
 * A process that loads the environment and answers "ping" with "pong" on its channel (which
 * keeps it alive, as jest-worker's own listener does), with a timer of its own if `withTimer`.
 */
function worker(withTimer: boolean): ChildProcess {
  const script = [
    `require(${JSON.stringify(ENVIRONMENT)}).noteTestFile(${JSON.stringify(LEAKY_FILE)});`,
    'process.on("message", (message) => { if (message === "ping") process.send("pong"); });',
    withTimer ? "setInterval(() => undefined, 60_000);" : "",
    'process.send("ready");',
  ].join("\n");
  const child = fork("-e", [script], { execArgv: [], stdio: ["ignore", "ignore", "pipe", "ipc"] });
  child.stderr?.setEncoding("utf8");
  started.push(child);
  return child;
}

const message = (child: ChildProcess, expected: string): Promise<void> =>
  new Promise((resolve) => {
    const listener = (received: unknown) => {
      if (received !== expected) return;
      child.off("message", listener);
      resolve();
    };
    child.on("message", listener);
  });

const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => child.once("exit", (code) => resolve(code)));

/**
 * What the process writes on standard error from now on, and its first whole line once it has
 * come (standard error is a pipe of its own: a line may come after a later message on the channel).
 */
function stderrOf(child: ChildProcess): { text: string; firstLine: Promise<string> } {
  let text = "";
  const firstLine = new Promise<string>((resolve) => {
    child.stderr?.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n") + 1));
    });
  });
  return {
    get text() {
      return text;
    },
    firstLine,
  };
}

test("told the end with nothing left to do, a worker exits at once (its channel still open), saying nothing", async () => {
  const child = worker(false);
  const stderr = stderrOf(child);
  await message(child, "ready");
  const exit = exited(child);
  child.send(END);
  expect(await exit).toBe(0);
  expect(stderr.text).toBe("");
});

test("told the end while it holds a timer, a worker stays, for Jest to report, and says what it holds and where from", async () => {
  const child = worker(true);
  const stderr = stderrOf(child);
  await message(child, "ready");
  child.send(END);
  // Two round trips: the first answer may leave in the same turn as the end arrived, before the
  // worker decides; the second comes after that decision.
  for (let round = 0; round < 2; round += 1) {
    const answered = message(child, "pong");
    child.send("ping");
    await answered;
  }
  expect(child.exitCode).toBeNull();
  expect(await stderr.firstLine).toBe(
    "PCD test lanes: a Jest worker still holds Timeout x1 after the run (Jest stops it by force " +
      "if that keeps it past half a second). The last test file it ran: " +
      `${path.join("test", "leaky.test.ts")}; that file, or one before it in this worker, left a ` +
      "timer, a socket or a process behind.\n",
  );
});
