import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { createFileSessionStore } from "../../../runtime/sessions/index.js";
import { createMemoryResponseStore, createMemoryRunQueue } from "../../../runtime/state/index.js";
import { ToolsiftError } from "../../../shared/errors/index.js";
import { createGateway } from "../create-gateway.js";
import { FakeRunner } from "../fake-runner.test-support.js";

// A store that cannot keep a response after the run finished (the database went away in between): the answer
// is still sent, whole or streamed, the gateway logs why the id cannot continue the session, and nothing is
// left unhandled (an unhandled rejection would end the gateway process, and fails this test file).

async function gatewayWithFailingResponseStore() {
  const stateDir = await mkdtemp(join(tmpdir(), "toolsift-response-fault-"));
  const sessions = createFileSessionStore(stateDir);
  const memory = createMemoryResponseStore();
  const logs: string[] = [];
  const gateway = createGateway({
    runner: new FakeRunner(sessions),
    sessions,
    log: (line) => logs.push(line),
    state: {
      responses: {
        ...memory,
        remember: () =>
          Promise.reject(new ToolsiftError("STORAGE_UNAVAILABLE", "the state database is unreachable")),
      },
      createRunQueue: (options) => createMemoryRunQueue(options),
      probe: async () => ({ writable: true as const }),
    },
  });
  const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  onTestFinished(async () => {
    await listener.close();
    await rm(stateDir, { recursive: true, force: true });
  });
  return { url: listener.url, logs };
}

describe("a response the store cannot keep", () => {
  it("is still answered, whole and streamed; the log says previous_response_id cannot continue it", async () => {
    const { url, logs } = await gatewayWithFailingResponseStore();
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    const whole = await client.responses.create({ model: "toolsift", input: "hello" });
    expect(whole.status).toBe("completed");
    const stream = await client.responses.create({ model: "toolsift", input: "hello again", stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe("response.completed");
    await expect
      .poll(() => logs.filter((line) => line.includes("was answered but not stored")).length)
      .toBe(2);
    expect(logs.find((line) => line.includes(whole.id))).toContain("x-toolsift-session can");
  });
});
