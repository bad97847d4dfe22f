import { afterEach, describe, expect, it } from "vitest";
import {
  assistantSays,
  createRunnerHarness,
  type RunnerHarness,
  scriptedProvider,
} from "../../../runtime/runner/runner.test-support.js";
import { createGateway } from "../create-gateway.js";
import { startTestGateway } from "../gateway.test-support.js";
import type { GatewayListener } from "../types.js";
import { anthropicError } from "./anthropic-error.test-support.js";

// `POST /v1/messages/count_tokens` over a real runner (a scripted provider it never calls) on a real gateway:
// the surface decides what is counted, a client tool the surface refuses is a 400, and a runner that cannot
// count answers 404. The replayed Claude Code request and the guard: messages-claude-code.e2e.test.ts.

let harness: RunnerHarness | undefined;
let listener: GatewayListener | undefined;
afterEach(async () => {
  await listener?.close();
  await harness?.close();
  listener = undefined;
  harness = undefined;
});

async function start(mode: "tools" | "directory"): Promise<string> {
  harness = await createRunnerHarness({
    provider: scriptedProvider(() => [assistantSays("ok")]),
    toolSearch: { mode },
  });
  listener = await createGateway({
    runner: harness.runner,
    sessions: harness.sessions,
    log: () => {},
  }).listen({
    port: 0,
    host: "127.0.0.1",
  });
  return listener.url;
}

async function count(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/v1/messages/count_tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const BASE = { model: "toolsift", messages: [{ role: "user", content: "hi" }] };
const PAINT = {
  name: "paint_fence",
  description: "Paint the garden fence. ".repeat(40),
  input_schema: { type: "object", properties: { colour: { type: "string" } } },
};

describe("POST /v1/messages/count_tokens over a real runner", () => {
  it("directory mode declares a client tool, so it counts it; tools mode puts it behind Tool Search", async () => {
    const directory = await start("directory");
    const plainDirectory = ((await (await count(directory, BASE)).json()) as { input_tokens: number })
      .input_tokens;
    const withToolDirectory = (
      (await (await count(directory, { ...BASE, tools: [PAINT] })).json()) as { input_tokens: number }
    ).input_tokens;
    // Its whole declaration: the ~960-byte description alone is over 300 tokens at 3 bytes a token.
    expect(withToolDirectory - plainDirectory).toBeGreaterThan(300);
    await listener?.close();
    await harness?.close();
    const tools = await start("tools");
    const plainTools = ((await (await count(tools, BASE)).json()) as { input_tokens: number }).input_tokens;
    const withToolTools = (
      (await (await count(tools, { ...BASE, tools: [PAINT] })).json()) as { input_tokens: number }
    ).input_tokens;
    // Not declared: at most a directory line names it.
    expect(withToolTools - plainTools).toBeLessThan(withToolDirectory - plainDirectory);
  });

  it("hosted tools are left out of the count, as out of the run", async () => {
    const url = await start("directory");
    const plain = (await (await count(url, BASE)).json()) as { input_tokens: number };
    const hosted = (await (
      await count(url, { ...BASE, tools: [{ type: "web_search_20250305", name: "web_search" }] })
    ).json()) as { input_tokens: number };
    expect(hosted.input_tokens).toBe(plain.input_tokens);
  });

  it("a client tool the surface refuses (named like the agent's own tool) is a 400 naming it", async () => {
    const url = await start("directory");
    const response = await count(url, { ...BASE, tools: [{ name: "weather_forecast" }] });
    expect(response.status).toBe(400);
    const error = await anthropicError(response);
    expect(error.type).toBe("invalid_request_error");
    expect(error.message).toContain("weather_forecast");
  });
});

describe("POST /v1/messages/count_tokens on a runner that cannot count", () => {
  it("is a 404 not_found_error saying so", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/messages/count_tokens", BASE);
    expect(response.status).toBe(404);
    expect(await anthropicError(response)).toEqual({
      type: "not_found_error",
      message: "/v1/messages/count_tokens is not available: this gateway's runner cannot count tokens.",
    });
  });
});
