import { afterEach, describe, expect, test } from "vitest";
import { createRunnerHarness, eventsOfType, type RunnerHarness } from "./runner.test-support.js";

let harness: RunnerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A user message of about `chars` characters, numbered so each turn is told apart. */
function longMessage(turn: number, chars: number): string {
  return `turn ${turn}: ${"please remember this line of notes. ".repeat(Math.ceil(chars / 36))}`;
}

describe.each(["openai-responses", "openai-chat"] as const)("history sent over %s", (api) => {
  test("stays within the context window, drops the oldest turns, and never changes the prefix", async () => {
    harness = await createRunnerHarness({ api, agentDefaults: { contextWindowTokens: 6_000 } });
    const turns = 16;
    for (let turn = 1; turn <= turns; turn += 1) {
      const result = await harness.say("long", longMessage(turn, 3_000));
      expect(result.status).toBe("completed");
    }
    const bodies = harness.mockBodies();
    const sizes = (harness.mock?.requests() ?? []).map((request) => Buffer.byteLength(request.body));
    expect(bodies).toHaveLength(turns);

    // Untrimmed, the 16th request would carry 16 messages of ~3,000 characters and 15 answers.
    const last = JSON.stringify(bodies.at(-1));
    expect(last).toContain("turn 16:");
    expect(last).not.toContain("turn 1:");
    expect(sizes.at(-1)).toBeLessThan(6_000 * 4);
    expect(Math.max(...sizes)).toBeLessThan(6_000 * 4);

    // The stable prefix (system prompt with the directory, and the declared tools) is byte-identical in the
    // first request (nothing trimmed) and the last (trimmed).
    const first = bodies[0] as Record<string, unknown>;
    const latest = bodies.at(-1) as Record<string, unknown>;
    expect(JSON.stringify(latest.tools)).toBe(JSON.stringify(first.tools));
    if (api === "openai-responses") {
      expect(latest.instructions).toBe(first.instructions);
    } else {
      const system = (body: Record<string, unknown>) =>
        JSON.stringify((body.messages as Array<{ role: string }>).filter((m) => m.role === "system"));
      expect(system(latest)).toBe(system(first));
    }

    // The session log says what was left out, and the run log says it once per run that trimmed.
    const requests = eventsOfType(await harness.events("long"), "model-request");
    expect(requests[0]?.trimmed).toBeUndefined();
    expect(requests.at(-1)?.trimmed?.items).toBeGreaterThan(0);
    expect(requests.at(-1)?.trimmed?.chars).toBeGreaterThan(3_000);
    const trimmedRuns = requests.filter((request) => request.trimmed !== undefined).length;
    const lines = harness.logLines.filter((line) => line.includes("history trimmed"));
    expect(lines).toHaveLength(trimmedRuns);
    expect(lines[0]).toMatch(/items of the oldest turns dropped/u);

    // The full history is still in the session log: trimming only shapes what is sent.
    const inputs = eventsOfType(await harness.events("long"), "user-input");
    expect(inputs).toHaveLength(turns);
  });
});
