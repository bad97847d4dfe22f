import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { ResponseRegistry } from "../../runtime/state/index.js";
import { errorOf, startTestGateway } from "./gateway.test-support.js";

/** The error of a refused request, after checking its status. */
async function refused(response: Response, status: number) {
  expect(response.status).toBe(status);
  return errorOf(response);
}

/** The models the test gateway's agents make, in the order they are listed. */
const AGENT_MODELS = ["toolsift", "toolsift/main", "toolsift/helper", "toolsift/broken"];

const clientFor = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });

describe("GET /v1/models", () => {
  it("lists the agents as models for the official client, and retrieves one by id", async () => {
    const test = await startTestGateway();
    const client = clientFor(test.url);
    const listed = [];
    for await (const model of client.models.list()) listed.push(model);
    expect(listed.map((model) => model.id)).toEqual(AGENT_MODELS);
    for (const model of listed) {
      expect(model).toEqual({
        id: model.id,
        object: "model",
        created: expect.any(Number),
        owned_by: "toolsift",
      });
    }
    expect(await client.models.retrieve("toolsift/helper")).toMatchObject({ id: "toolsift/helper" });
    const missing = await test.get("/v1/models/toolsift/nobody");
    expect((await refused(missing, 404)).message).toContain("toolsift/main");
  });
});

describe("GET /v1/models for Anthropic's client", () => {
  it("lists and retrieves the agents in Anthropic's model shape (the client sends anthropic-version)", async () => {
    const test = await startTestGateway();
    const client = new Anthropic({ baseURL: test.url, apiKey: "unused", maxRetries: 0 });
    const listed = [];
    for await (const model of client.models.list()) listed.push(model);
    expect(listed.map((model) => model.id)).toEqual(AGENT_MODELS);
    for (const model of listed) {
      expect(model).toEqual({
        type: "model",
        id: model.id,
        display_name: expect.stringContaining("toolsift"),
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/u),
      });
    }
    expect(listed[0]?.display_name).toBe("toolsift (agent main)");
    expect(listed[2]?.display_name).toBe("toolsift agent helper");
    const page = await client.models.list();
    expect(page.has_more).toBe(false);
    expect(await client.models.retrieve("toolsift/helper")).toMatchObject({
      type: "model",
      id: "toolsift/helper",
    });
    await expect(client.models.retrieve("toolsift/nobody")).rejects.toMatchObject({ status: 404 });
  });
});

describe("a request's model picks the agent", () => {
  it.each([
    ["toolsift", "main"],
    ["toolsift/helper", "helper"],
    ["gpt-4o-mini", "main"],
  ])("model %s runs agent %s", async (model, agentId) => {
    const test = await startTestGateway();
    const response = await test.post("/v1/responses", { model, input: "hi" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-toolsift-agent")).toBe(agentId);
    expect(test.runner.requests.at(-1)?.agentId).toBe(agentId);
  });

  it("works the same on Chat Completions", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/chat/completions", {
      model: "toolsift/helper",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(response.status).toBe(200);
    expect(test.runner.requests.at(-1)?.agentId).toBe("helper");
  });

  it("lets the generic model name defer to x-toolsift-agent (and to a previous response's agent)", async () => {
    const test = await startTestGateway();
    const byHeader = await test.post(
      "/v1/responses",
      { model: "toolsift", input: "hi" },
      { "x-toolsift-agent": "helper" },
    );
    expect(byHeader.status).toBe(200);
    expect(test.runner.requests.at(-1)?.agentId).toBe("helper");
    const first = (await byHeader.json()) as { id: string };
    const followUp = await test.post("/v1/responses", {
      model: "toolsift",
      input: "again",
      previous_response_id: first.id,
    });
    expect(followUp.status).toBe(200);
    expect(test.runner.requests.at(-1)?.agentId).toBe("helper");
    const alone = await test.post("/v1/responses", { model: "toolsift", input: "hi" });
    expect(alone.status).toBe(200);
    expect(test.runner.requests.at(-1)?.agentId).toBe("main");
  });

  it("refuses an unknown agent, a malformed one, and a model that contradicts the header or the previous response", async () => {
    const test = await startTestGateway();
    const unknown = await test.post("/v1/responses", { model: "toolsift/nobody", input: "hi" });
    expect(await refused(unknown, 404)).toMatchObject({ param: "model" });
    const malformed = await test.post("/v1/responses", { model: "toolsift/../etc", input: "hi" });
    expect(await refused(malformed, 400)).toMatchObject({ param: "model" });
    const empty = await test.post("/v1/responses", { model: "toolsift/", input: "hi" });
    expect(await refused(empty, 400)).toMatchObject({ param: "model" });
    const clash = await test.post(
      "/v1/responses",
      { model: "toolsift/helper", input: "hi" },
      { "x-toolsift-agent": "main" },
    );
    expect((await refused(clash, 400)).message).toContain("drop one");
    // Both naming the same agent is fine.
    const same = await test.post(
      "/v1/responses",
      { model: "toolsift/helper", input: "hi" },
      { "x-toolsift-agent": "helper" },
    );
    expect(same.status).toBe(200);
    const first = (await same.json()) as { id: string };
    const followUp = await test.post("/v1/responses", {
      model: "toolsift/main",
      input: "again",
      previous_response_id: first.id,
    });
    expect(await refused(followUp, 400)).toMatchObject({ param: "model" });
    expect(test.runner.requests).toHaveLength(1);
  });
});

describe("GET /v1/responses/:id", () => {
  it("returns the stored response equal to the one the create call returned, except with store: false", async () => {
    const test = await startTestGateway();
    const client = clientFor(test.url);
    const created = await client.responses.create({ model: "toolsift", input: "remember me" });
    const retrieved = await client.responses.retrieve(created.id);
    expect(JSON.parse(JSON.stringify(retrieved))).toEqual(JSON.parse(JSON.stringify(created)));

    const unstored = await client.responses.create({ model: "toolsift", input: "forget me", store: false });
    const missing = await test.get(`/v1/responses/${unstored.id}`);
    expect((await refused(missing, 404)).message).toContain("store: false");
    // It still continues its session.
    const followUp = await client.responses.create({
      model: "toolsift",
      input: "and then",
      previous_response_id: unstored.id,
    });
    expect(followUp.status).toBe("completed");
    const bad = await test.post("/v1/responses", { input: "hi", store: "yes" });
    expect(await refused(bad, 400)).toMatchObject({ param: "store" });
  });
});

describe("ResponseRegistry", () => {
  it("keeps ids up to its capacity and bodies up to its byte budget, dropping the oldest first", () => {
    const registry = new ResponseRegistry(3, 40);
    const origin = { agentId: "main", sessionKey: "s" };
    registry.remember("a", origin, { text: "aaaaaaaaaa" });
    registry.remember("b", origin, { text: "bbbbbbbbbb" });
    // 21 bytes each: the second body pushes the first out; its id still continues the session.
    expect(registry.stored("a")).toBeUndefined();
    expect(registry.lookup("a")).toEqual(origin);
    expect(registry.stored("b")).toEqual({ text: "bbbbbbbbbb" });
    registry.remember("c", origin);
    registry.remember("d", origin, { text: "x".repeat(100) });
    // Over capacity: "a" is forgotten; a body larger than the whole budget is never kept.
    expect(registry.lookup("a")).toBeUndefined();
    expect(registry.lookup("d")).toEqual(origin);
    expect(registry.stored("d")).toBeUndefined();
    expect(registry.stored("b")).toEqual({ text: "bbbbbbbbbb" });
    expect(registry.size).toBe(3);
  });
});
