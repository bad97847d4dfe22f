import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { createCliHome, runBuiltCli } from "./built-cli.test-support.js";

// `toolsift sessions` pages (the built CLI: run `npm run build` first).

let root = "";
let env: NodeJS.ProcessEnv = {};

const run = (...args: string[]) => runBuiltCli(args, env);

/** The `agent/key` ids a text listing shows, in order. */
function listedIds(stdout: string): string[] {
  return [...stdout.matchAll(/ {2}(\S+\/\S+) {2}\d+ bytes$/gmu)].map((match) => match[1] ?? "");
}

beforeAll(async () => {
  ({ root, env } = await createCliHome("toolsift-cli-paging-", () => ({})));
  const store = createFileSessionStore(join(root, "state"));
  for (let index = 0; index < 23; index += 1)
    await store.append("main", `s${index}`, { type: "user-input", at: new Date().toISOString(), items: [] });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("toolsift sessions, a page at a time", () => {
  it("shows the newest 20 with a hint naming the next page, which --after lists", async () => {
    const first = await run("sessions");
    expect(first.code).toBe(0);
    const ids = listedIds(first.stdout);
    expect(ids).toHaveLength(20);
    expect(first.stdout).toContain(`More sessions: toolsift sessions --after ${ids[19]}\n`);
    const rest = await run("sessions", "--after", ids[19] ?? "");
    const restIds = listedIds(rest.stdout);
    expect(restIds).toHaveLength(3);
    expect(rest.stdout).not.toContain("More sessions");
    expect(new Set([...ids, ...restIds]).size).toBe(23);
  });

  it("takes --limit, and --json prints the page (the hint on stderr)", async () => {
    const json = await run("sessions", "--json", "--limit", "5");
    const page = JSON.parse(json.stdout) as Array<{ id: string; createdAt: string; updatedAt: string }>;
    expect(page).toHaveLength(5);
    expect(json.stderr).toContain(`More sessions: toolsift sessions --after ${page[4]?.id} --limit 5`);
  });

  it.each([
    [["--limit", "0"], "--limit must be a whole number from 1 to 100"],
    [["--limit", "abc"], "--limit must be a whole number from 1 to 100"],
    [["--after", "main/never"], "names no session"],
  ])("refuses %j clearly", async (args, message) => {
    const outcome = await run("sessions", ...args);
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toContain(message);
    expect(outcome.stderr).not.toMatch(/\n\s+at\s/u);
  });
});
