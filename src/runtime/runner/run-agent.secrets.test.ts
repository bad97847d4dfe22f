import { afterEach, describe, expect, it } from "vitest";
import { ToolsiftError } from "../../shared/errors/index.js";
import {
  assistantSays,
  createRunnerHarness,
  functionCall,
  type RunnerHarness,
  scriptedProvider,
  TEST_PROVIDER_ID,
} from "./runner.test-support.js";

const PASSWORD = "hunter2-correct-horse";
const PROVIDER_KEY = "provider-key-5d8e2b";

let harness: RunnerHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("runAgent: secrets the run has seen stay out of the session log and the log lines", () => {
  it("redacts a secret-named argument's value where the tool and the model repeat it as free text", async () => {
    const provider = scriptedProvider((_request, index) =>
      index === 0
        ? [
            functionCall("call_1", "tool_call", {
              id: "native:weather:calendar_add_event",
              args: { title: "rotate", password: PASSWORD },
            }),
          ]
        : [
            assistantSays(
              `Added. Your password ${PASSWORD} is in the title: "password\\":\\"${PASSWORD}\\"".`,
            ),
          ],
    );
    harness = await createRunnerHarness({ provider });
    const result = await harness.say("s1", "add the event");
    expect(result.status).toBe("completed");
    // The model and the client see the real value; the log does not.
    expect(result.text).toContain(PASSWORD);
    const logged = JSON.stringify(await harness.events("s1"));
    expect(logged).toContain("calendar_add_event ok");
    expect(logged).toContain("Your password [REDACTED] is in the title");
    expect(logged).not.toContain(PASSWORD);
  });

  it("redacts the provider's key from a failure it quotes: run summary, result error and log line", async () => {
    const provider = scriptedProvider(() => {
      throw new ToolsiftError(
        "PROVIDER_FAILED",
        `Provider "mock" failed with HTTP 401: bad key ${PROVIDER_KEY}.`,
      );
    });
    harness = await createRunnerHarness({ provider });
    const settings = harness.config.models?.providers?.[TEST_PROVIDER_ID];
    if (!settings) throw new Error("the harness config has no provider");
    settings.apiKey = PROVIDER_KEY; // read by the runner when it resolves the agent for each run
    const result = await harness.say("s2", "hello");
    expect(result.status).toBe("failed");
    expect(result.error?.message).toBe('Provider "mock" failed with HTTP 401: bad key [REDACTED].');
    expect(JSON.stringify(await harness.events("s2"))).not.toContain(PROVIDER_KEY);
    expect(harness.logLines.join("\n")).toContain("PROVIDER_FAILED");
    expect(harness.logLines.join("\n")).not.toContain(PROVIDER_KEY);
  });
});
