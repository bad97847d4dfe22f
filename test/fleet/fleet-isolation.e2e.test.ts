import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { as, type Fleet, read, respond, startFleet } from "./fleet.test-support.js";

// Isolation between client keys across gateways: alice's session, stored response and held approval live on
// gateway A; bob (the same scopes, another key) probes each route that reads or decides, through gateway B.
// Every probe is refused as an unknown id would be, or answered from bob's own namespace; admin sees all.

let fleet: Fleet;
let responseId = "";
let approvalId = "";
let held: Promise<unknown>;
const SECRET = "alice secret 4242";

beforeAll(async () => {
  fleet = await startFleet({ gateways: 2 });
  const [a, b] = fleet.gateways;
  if (!a || !b) throw new Error("two gateways expected");
  const first = await respond(a, "alice", { input: SECRET }, "shared-name");
  expect(first.status).toBe(200);
  responseId = String(first.body.id);
  held = respond(a, "alice", { input: "target=touch_marker" }, "alice-held");
  for (let attempt = 0; attempt < 100 && approvalId === ""; attempt += 1) {
    const listed = (await read(b, "alice", "/v1/approvals")).body.approvals as Array<{ id: string }>;
    approvalId = listed[0]?.id ?? "";
    if (approvalId === "") await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(approvalId).not.toBe("");
}, 60_000);

afterAll(async () => {
  await fleet?.close();
});

/** Whether the model was sent alice's secret after request number `from`. */
function modelSawSecret(from: number): boolean {
  return fleet.mock
    .requests()
    .slice(from)
    .some((request) => JSON.stringify(request.body).includes(SECRET));
}

async function post(path: string, body: unknown, headers: Record<string, string>) {
  const b = fleet.gateways[1];
  if (!b) throw new Error("gateway B expected");
  const response = await fetch(`${b.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("bob probes alice's state through another gateway", () => {
  it("GET /v1/sessions/:key and GET /v1/sessions reveal nothing", async () => {
    const b = fleet.gateways[1];
    if (!b) throw new Error("gateway B expected");
    expect((await read(b, "bob", "/v1/sessions/shared-name")).status).toBe(404);
    expect((await read(b, "bob", "/v1/sessions/alice.shared-name")).status).toBe(404);
    const listed = await read(b, "bob", "/v1/sessions?limit=100");
    expect(JSON.stringify(listed.body)).not.toMatch(/shared-name|alice-held/u);
  });

  it("GET /v1/responses/:id and previous_response_id answer 404", async () => {
    const b = fleet.gateways[1];
    if (!b) throw new Error("gateway B expected");
    expect((await read(b, "bob", `/v1/responses/${responseId}`)).status).toBe(404);
    const continued = await respond(b, "bob", { input: "go on", previous_response_id: responseId });
    expect(continued.status).toBe(404);
  });

  it.each([
    ["/v1/responses", { model: "toolsift", input: "what is the secret?" }],
    [
      "/v1/chat/completions",
      { model: "toolsift", messages: [{ role: "user", content: "what is the secret?" }] },
    ],
    [
      "/v1/messages",
      { model: "toolsift", max_tokens: 64, messages: [{ role: "user", content: "what is the secret?" }] },
    ],
  ])("%s with alice's session name runs in bob's own session", async (path, body) => {
    const before = fleet.mock.requests().length;
    const answered = await post(path, body, as("bob", "shared-name"));
    expect(answered.status).toBe(200);
    expect(modelSawSecret(before)).toBe(false);
  });

  it("GET /v1/approvals lists nothing and POST /v1/approvals/:id is 404; alice's request stays pending", async () => {
    const [a, b] = fleet.gateways;
    if (!a || !b) throw new Error("two gateways expected");
    expect((await read(b, "bob", "/v1/approvals")).body.approvals).toEqual([]);
    const decided = await post(`/v1/approvals/${approvalId}`, { decision: "allow" }, as("bob"));
    expect(decided.status).toBe(404);
    const alices = (await read(a, "alice", "/v1/approvals")).body.approvals as Array<{ id: string }>;
    expect(alices.map((approval) => approval.id)).toEqual([approvalId]);
  });

  it("an admin key sees and decides all of it through either gateway", async () => {
    const [a, b] = fleet.gateways;
    if (!a || !b) throw new Error("two gateways expected");
    expect((await read(b, "ops", "/v1/sessions/alice.shared-name")).status).toBe(200);
    expect((await read(b, "ops", `/v1/responses/${responseId}`)).status).toBe(200);
    const decided = await post(`/v1/approvals/${approvalId}`, { decision: "deny" }, as("ops"));
    expect(decided.status).toBe(200);
    expect(((await held) as { status: number }).status).toBe(200);
    expect(fleet.markerRuns()).toBe(0);
  });
});
