import { afterEach, describe, expect, it } from "vitest";
import { createApprovalBroker } from "../approvals/index.js";
import { createRunnerHarness, eventsOfType, type RunnerHarness } from "./runner.test-support.js";

describe("a run whose call waits for approval", () => {
  let harness: RunnerHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it("logs how the call was settled (who, the note, when) in its run, before the call's result", async () => {
    const broker = createApprovalBroker({ require: ["weather_forecast"], timeoutMs: 60_000 });
    harness = await createRunnerHarness({ approvals: broker, toolSearch: { mode: "tools" } });
    const run = harness.say("approved", "please target=weather_forecast");
    let pending = await broker.pending();
    for (let round = 0; round < 500 && pending.length === 0; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      pending = await broker.pending();
    }
    const [request] = pending;
    if (request === undefined) throw new Error("the call never asked for approval");
    expect(await broker.decide(request.id, "allow", "password=hunter2-secret ok", "alice")).toBe(true);
    expect((await run).status).toBe("completed");

    const events = await harness.events("approved");
    const [approval] = eventsOfType(events, "approval");
    const runId = eventsOfType(events, "run-summary")[0]?.runId;
    expect(approval).toMatchObject({
      type: "approval",
      runId,
      approvalId: request.id,
      toolId: request.toolId,
      name: "weather_forecast",
      verdict: "allow",
      decidedBy: "alice",
      requestedAt: request.createdAt,
    });
    expect(typeof approval?.callId).toBe("string");
    // Redacted like every other line: the note's secret is not in the log.
    expect(JSON.stringify(approval)).not.toContain("hunter2-secret");
    const order = events.map((event) => event.type);
    expect(order.indexOf("approval")).toBeLessThan(order.indexOf("target-activity"));
    broker.close();
  });

  it("a timeout is logged with no deciding key", async () => {
    const broker = createApprovalBroker({ require: ["weather_forecast"], timeoutMs: 200 });
    harness = await createRunnerHarness({ approvals: broker, toolSearch: { mode: "tools" } });
    await harness.say("timed-out", "please target=weather_forecast");
    const [approval] = eventsOfType(await harness.events("timed-out"), "approval");
    expect(approval).toMatchObject({ verdict: "deny", outcome: "timed out", name: "weather_forecast" });
    expect(approval).not.toHaveProperty("decidedBy");
    broker.close();
  });
});
