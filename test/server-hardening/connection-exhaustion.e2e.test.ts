import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSY_RETRY_AFTER_SECONDS, connectionBudget } from "../../src/front-doors/http-server/index.js";
import { INITIALIZE_REQUEST } from "../../src/front-doors/mcp-server/serve-mcp-http.test-support.js";
import {
  type ServerProcess,
  silentSocket,
  spawnServer,
  tempDir,
  writeConfig,
} from "./server-hardening.test-support.js";

/** The open-file limit the servers run with (soft and hard): its connection cap is about a hundred. */
const DESCRIPTOR_LIMIT = 256;
/** Silent sockets the attacker keeps open: more than the whole descriptor budget for connections. */
const ATTACKER_SOCKETS = 300;
/** Most reconnections of the attacker in one test (its sockets are reopened when the server closes them). */
const MAX_RECONNECTIONS = 1_500;
/** Legitimate requests sent one after another while the attacker holds its sockets. */
const LEGIT_REQUESTS = 10;
/** Most attempts per legitimate request (a 503 or a dropped connection is retried). */
const MAX_ATTEMPTS = 200;

type Server = {
  name: string;
  args: (configPath: string) => string[];
  /** One legitimate request to the server at `url`. */
  legit: (url: string) => Promise<Response>;
};

const SERVERS: Server[] = [
  {
    name: "toolsift gateway",
    args: (configPath) => ["gateway", "--port", "0", "--config", configPath],
    legit: (url) => fetch(`${url}/v1/models`),
  },
  {
    name: "toolsift mcp serve --http",
    args: (configPath) => ["mcp", "serve", "--http", "0", "--config", configPath],
    legit: (url) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: INITIALIZE_REQUEST,
      }),
  },
];

/** An attacker that keeps `count` silent sockets open, reopening each one the server closes (bounded). */
function holdSockets(port: number, count: number) {
  let reconnections = 0;
  let stopped = false;
  let serverClosed = 0;
  const open = new Set<ReturnType<typeof silentSocket>>();
  const openOne = () => {
    const connection = silentSocket(port);
    open.add(connection);
    void connection.closed.then(() => {
      open.delete(connection);
      if (stopped) return;
      serverClosed += 1;
      if (reconnections < MAX_RECONNECTIONS) {
        reconnections += 1;
        openOne();
      }
    });
  };
  for (let index = 0; index < count; index += 1) openOne();
  return {
    serverClosed: () => serverClosed,
    stop: async () => {
      stopped = true;
      const closing = [...open].map((connection) => connection.closed);
      for (const connection of open) connection.socket.destroy();
      await Promise.all(closing);
    },
  };
}

describe.each(SERVERS)("$name with ulimit -n 256, against 300 silent sockets held open", (server) => {
  let dir: string;
  let child: ServerProcess | undefined;

  beforeAll(async () => {
    dir = await tempDir("exhaustion");
  });

  afterAll(async () => {
    child?.kill("SIGKILL");
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("answers every legitimate request (a refusal is a 503 with Retry-After), closes the silent sockets and logs no stack", async () => {
    const { configPath, env } = await writeConfig(dir, {});
    child = await spawnServer({ args: server.args(configPath), env, descriptorLimit: DESCRIPTOR_LIMIT });
    const port = Number(new URL(child.url).port);
    const budget = connectionBudget({ softLimit: DESCRIPTOR_LIMIT });
    expect(budget.refusalLimit).toBeLessThan(ATTACKER_SOCKETS);

    const attacker = holdSockets(port, ATTACKER_SOCKETS);
    const refusals: Response[] = [];
    let answered = 0;
    for (let request = 0; request < LEGIT_REQUESTS; request += 1) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const response = await server.legit(child.url).catch(() => undefined);
        if (response === undefined) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        await response.body?.cancel();
        if (response.status === 200) {
          answered += 1;
          break;
        }
        refusals.push(response);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    // The server closed silent sockets while the attacker held them (each reopened one counts).
    expect(attacker.serverClosed()).toBeGreaterThanOrEqual(ATTACKER_SOCKETS - budget.refusalLimit);
    await attacker.stop();

    expect(answered).toBe(LEGIT_REQUESTS);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(503);
      expect(refusal.headers.get("retry-after")).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    }
    const log = child.stderr();
    expect(log).not.toMatch(/internal error|\n\s+at /u);
    expect(log).not.toContain("EMFILE");
    // The connection limit is one line, not one per connection.
    expect(
      log.split("\n").filter((line) => line.includes("connection limit reached")).length,
    ).toBeLessThanOrEqual(1);

    child.kill("SIGTERM");
    expect((await child.exited).code).toBe(0);
  }, 120_000);
});
