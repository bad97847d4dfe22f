import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFileSessionStore,
  MAX_CONTENT_SCAN_SESSIONS,
  type SessionEvent,
} from "../../runtime/sessions/index.js";
import { createCliHome, runBuiltCli } from "./built-cli.test-support.js";

// `toolsift sessions --status / --contains` (the built CLI: run `npm run build` first): the search by content
// of GET /v1/sessions, with its per-page bound and the hint that goes on from where it stopped.

let root = "";
let env: NodeJS.ProcessEnv = {};

const run = (...args: string[]) => runBuiltCli(args, env);

function listedIds(stdout: string): string[] {
  return [...stdout.matchAll(/ {2}(\S+\/\S+) {2}\d+ bytes$/gmu)].map((match) => match[1] ?? "");
}

const said = (text: string): SessionEvent =>
  ({
    type: "user-input",
    at: new Date().toISOString(),
    runId: "r1",
    items: [{ type: "message", role: "user", text }],
  }) as SessionEvent;
const finished = (status: "completed" | "failed"): SessionEvent =>
  ({
    type: "run-summary",
    at: new Date().toISOString(),
    runId: "r1",
    status,
    turns: 1,
    durationMs: 5,
  }) as SessionEvent;

beforeAll(async () => {
  ({ root, env } = await createCliHome("toolsift-cli-filters-", () => ({})));
  const store = createFileSessionStore(join(root, "state"));
  await store.append("main", "needle", said("it's the rare Needle"));
  await store.append("main", "needle", finished("failed"));
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (let index = 0; index < MAX_CONTENT_SCAN_SESSIONS + 5; index += 1) {
    const key = `hay-${String(index).padStart(4, "0")}`;
    await store.append("main", key, said("hay"));
    await store.append("main", key, finished("completed"));
  }
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("toolsift sessions --status / --contains", () => {
  it("searches by text within the bound, and the hint goes on from the last session read", async () => {
    const first = await run("sessions", "--contains", "it's the rare");
    expect(first.code).toBe(0);
    expect(listedIds(first.stdout)).toEqual([]);
    expect(first.stdout).toContain("No matching session among the sessions read so far.");
    const hint = /More sessions: toolsift sessions --after (\S+) --contains 'it'\\''s the rare'\n/u.exec(
      first.stdout,
    );
    expect(hint?.[1]).toMatch(/^main\/hay-/u);
    const next = await run("sessions", "--contains", "it's the rare", "--after", hint?.[1] ?? "");
    expect(listedIds(next.stdout)).toEqual(["main/needle"]);
    expect(next.stdout).not.toContain("More sessions");
  });

  it("filters by the last run's status (with --json), and refuses an unknown one", async () => {
    const completed = await run("sessions", "--status", "completed", "--limit", "3", "--json");
    expect(completed.code).toBe(0);
    const page = JSON.parse(completed.stdout) as Array<{ id: string }>;
    expect(page).toHaveLength(3);
    expect(page.every((session) => session.id.startsWith("main/hay-"))).toBe(true);
    expect(completed.stderr).toContain(`--after ${page[2]?.id} --limit 3 --status completed`);
    const bad = await run("sessions", "--status", "exploded");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--status must be one of running, completed");
    expect(bad.stderr).not.toMatch(/\n\s+at\s/u);
  });
});
