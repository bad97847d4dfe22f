import { describe, expect, it } from "vitest";
import {
  type ApprovalBroker,
  createApprovalBroker,
  type PendingApproval,
} from "../../runtime/approvals/index.js";
import { errorOf, startTestGateway, type TestGateway } from "./gateway.test-support.js";
import { MAX_APPROVAL_BODY_BYTES } from "./limits.js";

type ResponsesBody = { output: Array<{ type: string; content?: Array<{ text: string }> }> };

function outputText(body: ResponsesBody): string {
  return body.output.flatMap((item) => item.content?.map((part) => part.text) ?? []).join("");
}

/** Lists the pending approvals over HTTP until `count` are there (the run publishes its request right after it starts). */
async function pendingOver(test: TestGateway, count = 1): Promise<PendingApproval[]> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const response = await test.get("/v1/approvals");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { approvals: PendingApproval[] };
    if (body.approvals.length >= count) return body.approvals;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`fewer than ${count} approvals were published`);
}

async function startWithBroker(broker: ApprovalBroker = createApprovalBroker()): Promise<TestGateway> {
  return startTestGateway({ approvals: broker });
}

describe("approval routes: a run waiting on the broker", () => {
  it("allow over HTTP lets the waiting exec call run", async () => {
    const test = await startWithBroker();
    const run = test.post("/v1/responses", { input: "exec:ls -la" }, { "x-toolsift-session": "s-allow" });
    const [request] = await pendingOver(test);
    expect(request).toMatchObject({ toolName: "exec", agentId: "main", sessionKey: "s-allow" });
    expect(request?.args).toMatchObject({ command: "ls -la" });
    const decided = await test.post(`/v1/approvals/${request?.id}`, { decision: "allow", note: "ok" });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toEqual({ id: request?.id, decision: "allow" });
    const response = await run;
    expect(response.status).toBe(200);
    expect(outputText((await response.json()) as ResponsesBody)).toBe("exec said: ran ls -la");
    expect(await (await test.get("/v1/approvals")).json()).toEqual({ approvals: [] });
  });

  it("deny over HTTP blocks the call: the model sees a blocked result with the reason", async () => {
    const test = await startWithBroker();
    const run = test.post("/v1/responses", { input: "exec:rm -rf /tmp/x" });
    const [request] = await pendingOver(test);
    const decided = await test.post(`/v1/approvals/${request?.id}`, { decision: "deny", note: "not today" });
    expect(await decided.json()).toEqual({ id: request?.id, decision: "deny" });
    const text = outputText((await (await run).json()) as ResponsesBody);
    expect(text).toMatch(/^exec blocked: /u);
    expect(text).toContain("denied by the operator: not today");
    expect(text).not.toContain("ran rm");
  });

  it("no decision within timeoutMs blocks the call and the request leaves the list", async () => {
    const test = await startWithBroker(createApprovalBroker({ timeoutMs: 50 }));
    const response = await test.post("/v1/responses", { input: "exec:make deploy" });
    const text = outputText((await response.json()) as ResponsesBody);
    expect(text).toMatch(/^exec blocked: /u);
    expect(text).toContain("no approval decision within 50 ms");
    expect(await (await test.get("/v1/approvals")).json()).toEqual({ approvals: [] });
  });

  it("publishes arguments redacted", async () => {
    const test = await startWithBroker();
    const run = test.post("/v1/responses", { input: "exec:env" });
    const [request] = await pendingOver(test);
    const listed = await (await test.get("/v1/approvals")).text();
    expect(listed).not.toContain("sk-fake-approval-secret");
    expect(listed).toContain(request?.id ?? "missing");
    await test.post(`/v1/approvals/${request?.id}`, { decision: "deny" });
    await run;
  });

  it("a drain's abort cancels a waiting approval: the call ends and the request leaves the list", async () => {
    const test = await startWithBroker();
    const run = test.post("/v1/responses", { input: "exec:sleep 100" });
    await pendingOver(test);
    await test.gateway.drain(1);
    const text = outputText((await (await run).json()) as ResponsesBody);
    expect(text).toMatch(/^exec failed: /u);
    expect(text).not.toContain("ran sleep");
    expect(await (await test.get("/v1/approvals")).json()).toEqual({ approvals: [] });
  });

  it("a second decision on the same id is a 404 and changes nothing", async () => {
    const test = await startWithBroker();
    const run = test.post("/v1/responses", { input: "exec:ls" });
    const [request] = await pendingOver(test);
    expect((await test.post(`/v1/approvals/${request?.id}`, { decision: "deny" })).status).toBe(200);
    const again = await test.post(`/v1/approvals/${request?.id}`, { decision: "allow" });
    expect(again.status).toBe(404);
    expect(await errorOf(again)).toMatchObject({ type: "not_found_error", param: "id" });
    expect(outputText((await (await run).json()) as ResponsesBody)).toMatch(/^exec blocked: /u);
  });
});

describe("approval routes: bad requests", () => {
  it("answers 404 for an unknown id, quoting only a well-formed one", async () => {
    const test = await startWithBroker();
    const unknown = await test.post("/v1/approvals/appr_0123456789abcdef01234567", { decision: "allow" });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toContain('"appr_0123456789abcdef01234567"');
    const odd = await test.post(`/v1/approvals/${encodeURIComponent("<script>")}`, { decision: "allow" });
    expect(odd.status).toBe(404);
    expect((await errorOf(odd)).message).not.toContain("script");
  });

  it.each([
    { body: "not json", param: null },
    { body: "", param: null },
    { body: [], param: null },
    { body: "null", param: null },
    { body: {}, param: "decision" },
    { body: { decision: "yes" }, param: "decision" },
    { body: { decision: "ALLOW" }, param: "decision" },
    { body: { decision: "allow", note: 3 }, param: "note" },
    { body: { decision: "allow", note: "x".repeat(1001) }, param: "note" },
  ])("answers 400 for body $body and leaves the request pending", async ({ body, param }) => {
    const test = await startWithBroker();
    const run = test.post("/v1/responses", { input: "exec:ls" });
    const [request] = await pendingOver(test);
    const response = await test.post(`/v1/approvals/${request?.id}`, body);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ type: "invalid_request_error", param });
    expect((await pendingOver(test)).map((pending) => pending.id)).toEqual([request?.id]);
    await test.post(`/v1/approvals/${request?.id}`, { decision: "deny" });
    await run;
  });

  it("answers 413 for an oversized decision body", async () => {
    const test = await startWithBroker();
    const response = await test.post("/v1/approvals/appr_x", {
      decision: "allow",
      note: "x".repeat(MAX_APPROVAL_BODY_BYTES),
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe("request_too_large");
  });

  it("answers 405 with Allow for a wrong method", async () => {
    const test = await startWithBroker();
    const listDelete = await fetch(`${test.url}/v1/approvals`, { method: "DELETE" });
    expect(listDelete.status).toBe(405);
    expect(listDelete.headers.get("allow")).toBe("GET, HEAD");
    const itemGet = await test.get("/v1/approvals/appr_x");
    expect(itemGet.status).toBe(405);
    expect(itemGet.headers.get("allow")).toBe("POST");
  });

  it("has no approval routes without a broker (404)", async () => {
    const test = await startTestGateway();
    const list = await test.get("/v1/approvals");
    expect(list.status).toBe(404);
    expect((await errorOf(list)).type).toBe("not_found_error");
    expect((await test.post("/v1/approvals/appr_x", { decision: "allow" })).status).toBe(404);
  });
});
