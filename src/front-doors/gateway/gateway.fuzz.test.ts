import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { EffectiveSurface, Runner, RunRequest, RunResult } from "../../runtime/runner/index.js";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { parseChatRequest } from "./chat/parse-chat-request.js";
import { createGateway } from "./create-gateway.js";
import { type FuzzBody, fuzzBodies, validBodies } from "./fuzz-bodies.test-support.js";
import { GatewayError } from "./gateway-error.js";
import { DEFAULT_MAX_BODY_BYTES } from "./limits.js";
import { parseMessagesRequest } from "./messages/parse-messages-request.js";
import { parseResponsesRequest } from "./responses/parse-responses-request.js";

/** The seed of the bodies: change it to explore; a failure names the body index to replay. */
const SEED = 20_261_201;
/** Bodies per route. */
const BODIES_PER_ROUTE = 1_250;

/** A runner that only records what reached it, and answers at once (a client tool call when one is declared). */
class RecordingRunner implements Runner {
  readonly requests: RunRequest[] = [];

  async run(request: RunRequest): Promise<RunResult> {
    this.requests.push(request);
    const base = {
      runId: `run-${this.requests.length}`,
      agentId: request.agentId,
      sessionKey: request.sessionKey,
      model: "mock/recording",
      usage: { inputTokens: 1, outputTokens: 1 },
    };
    const tool = request.clientTools?.[0];
    if (tool !== undefined) {
      const call = { type: "function_call" as const, callId: "call_f", name: tool.name, arguments: "{}" };
      return { ...base, status: "requires_action", output: [call], text: "" };
    }
    const text = "ok";
    return { ...base, status: "completed", output: [{ type: "message", role: "assistant", text }], text };
  }

  async effectiveSurface(agentId: string): Promise<EffectiveSurface> {
    return { agentId, toolSearch: { enabled: false, mode: "tools" }, tools: [], declaredTools: [] };
  }

  agentIds(): string[] {
    return ["main"];
  }

  async close(): Promise<void> {}
}

const PARSERS = {
  "/v1/responses": parseResponsesRequest,
  "/v1/chat/completions": parseChatRequest,
  "/v1/messages": parseMessagesRequest,
} as const;

function describeBody(index: number, body: FuzzBody): string {
  return `body #${index} (seed ${SEED}) to ${body.path}: ${body.mutations.join("; ")}: ${body.text.slice(0, 300)}`;
}

describe("gateway fuzz", () => {
  it("answers every mutated body with 2xx or a 4xx error object, never 500, and runs no refused body", async () => {
    const stateDir = await mkdtemp(join(tmpdir(), "toolsift-fuzz-"));
    const sessions = createFileSessionStore(stateDir);
    const runner = new RecordingRunner();
    const logs: string[] = [];
    const gateway = createGateway({ runner, sessions, log: (line) => logs.push(line) });
    const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
    onTestFinished(async () => {
      await listener.close();
      await rm(stateDir, { recursive: true, force: true });
    });

    const bodies = [...validBodies(), ...fuzzBodies(SEED, BODIES_PER_ROUTE)];
    const statuses = new Map<number, number>();
    let resets = 0;
    for (const [index, body] of bodies.entries()) {
      const ranBefore = runner.requests.length;
      const where = describeBody(index, body);
      let response: Response;
      try {
        response = await fetch(`${listener.url}${body.path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: body.text,
        });
      } catch (error) {
        // Over the size cap the gateway answers 413 before reading and then closes the connection, so a
        // client still uploading may see the reset instead of the answer. Nothing may have run.
        expect(Buffer.byteLength(body.text), `${String(error)} for ${where}`).toBeGreaterThan(
          DEFAULT_MAX_BODY_BYTES,
        );
        expect(runner.requests.length - ranBefore, where).toBe(0);
        resets += 1;
        continue;
      }
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status < 500, `${response.status} ${text.slice(0, 300)} for ${where}`).toBe(true);
      const ran = runner.requests.length - ranBefore;
      if (response.status >= 400) {
        expect(ran, `a refused body reached the runner: ${where}`).toBe(0);
        // OpenAI's `{ error: { message, type, … } }`, or Anthropic's `{ type: "error", error: { type, message } }`.
        const parsed = JSON.parse(text) as { type?: unknown; error?: { message?: unknown; type?: unknown } };
        const error = parsed.error;
        expect(typeof error?.message, `not an error object: ${text.slice(0, 300)} for ${where}`).toBe(
          "string",
        );
        if (body.path === "/v1/messages") expect(parsed.type, where).toBe("error");
        expect(typeof error?.type).toBe("string");
        expect(String(error?.message).length, `an overlong message for ${where}`).toBeLessThan(1_000);
      } else {
        expect(ran, `an accepted body ran ${ran} times: ${where}`).toBe(1);
        const answer = JSON.parse(text) as { object?: unknown; type?: unknown };
        if (body.path === "/v1/messages") expect(answer.type).toBe("message");
        else expect(answer.object).toBe(body.path === "/v1/responses" ? "response" : "chat.completion");
      }
    }
    // The valid bases run; most mutants are refused, some still run.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(validBodies().length);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(bodies.length / 4);
    expect(logs.filter((line) => line.startsWith("internal error"))).toEqual([]);
    expect(logs.filter((line) => / 413 /u.test(line)).length).toBeGreaterThanOrEqual(resets);
  }, 180_000);

  it("the parsers throw nothing but 4xx GatewayErrors, whatever the parsed body (deep ones included)", () => {
    for (const [index, body] of fuzzBodies(SEED + 1, 1_000).entries()) {
      let value: unknown;
      try {
        value = JSON.parse(body.text);
      } catch {
        continue;
      }
      const parse = PARSERS[body.path];
      try {
        parse(value);
      } catch (error) {
        const where = describeBody(index, body);
        expect(error instanceof GatewayError, `${String(error)} for ${where}`).toBe(true);
        expect((error as GatewayError).status, where).toBeLessThan(500);
        expect((error as GatewayError).message.length, where).toBeLessThan(1_000);
      }
    }
  });

  it("generates the same bodies for the same seed", () => {
    const first = fuzzBodies(7, 30).map((body) => body.text);
    expect(fuzzBodies(7, 30).map((body) => body.text)).toEqual(first);
    expect(fuzzBodies(8, 30).map((body) => body.text)).not.toEqual(first);
  });
});
