import { describe, expect, it, onTestFinished } from "vitest";
import {
  assistantSays,
  createRunnerHarness,
  scriptedProvider,
  WEATHER_TOOLS,
} from "../../runtime/runner/runner.test-support.js";
import { createGateway } from "../gateway/create-gateway.js";
import { ALL_TEST_KEYS, TEST_KEYS } from "../gateway/gateway-keys.test-support.js";
import { type ConsoleAnswer, consoleClient } from "./console-client.test-support.js";
import { CSRF_HEADER } from "./console-paths.js";
import {
  MAX_TOOL_BATCH_QUERIES,
  MAX_TOOL_ID_CHARS,
  MAX_TOOL_QUERY_CHARS,
  MAX_TOOL_SEARCH_LIMIT,
} from "./tool-search-routes.js";

// The tools page's search box and tool details over real HTTP, on a gateway over a real runner (its plugin
// tools, its Tool Search settings): the answers are the runner's own, behind the tools page's checks.

async function startGateway(options: { toolSearch?: false } = {}) {
  const harness = await createRunnerHarness({
    provider: scriptedProvider(() => [assistantSays("done")]),
    toolSearch: options.toolSearch ?? { enabled: true, mode: "tools" },
    agentsList: [{ id: "helper" }, { id: "narrow", tools: { deny: ["email_send"] } }],
    plugins: [
      {
        id: "weather",
        tools: [
          ...WEATHER_TOOLS,
          { name: "reply_now", description: "Reply now.", catalogMode: "direct-only" },
        ],
      },
    ],
  });
  const gateway = createGateway({
    runner: harness.runner,
    sessions: harness.sessions,
    log: () => {},
    authKeys: ALL_TEST_KEYS,
  });
  const listener = await gateway.listen({ port: 0, host: "127.0.0.1" });
  onTestFinished(async () => {
    await listener.close();
    await harness.close();
  });
  return { url: listener.url, runner: harness.runner };
}

async function signedIn(url: string, key: keyof typeof TEST_KEYS) {
  const client = consoleClient(url);
  expect((await client.login(TEST_KEYS[key].token)).status).toBe(200);
  return client;
}

function errorOf(answer: ConsoleAnswer): { code?: unknown; message?: unknown; type?: unknown } {
  return (answer.body.error ?? {}) as { code?: unknown; message?: unknown; type?: unknown };
}

describe("GET /console/api/tool-search and /tool-describe", () => {
  it("answer what the runner's tool_search and tool_describe answer the model, with the bytes", async () => {
    const { url, runner } = await startGateway();
    const alice = await signedIn(url, "alice");
    const search = await alice.send("GET", "/tool-search?agent=main&q=send+an+email&limit=2");
    expect(search.status).toBe(200);
    expect(search.body).toEqual(
      JSON.parse(
        JSON.stringify(await runner.searchTools?.({ agentId: "main", query: "send an email", limit: 2 })),
      ),
    );
    const answer = search.body.answer as { output: string; isError: boolean };
    expect(answer.isError).toBe(false);
    expect(answer.output).toContain("email_send");
    const bytes = search.body.bytes as Record<string, number>;
    expect(bytes.result).toBe(Buffer.byteLength(answer.output, "utf8"));
    expect(bytes.everyTool).toBeGreaterThan(0);

    // The agent's own policy: narrow's runs never see email_send.
    const narrow = await alice.send("GET", "/tool-search?agent=narrow&q=send+an+email");
    expect((narrow.body.answer as { output: string }).output).not.toContain("email_send");

    const described = await alice.send("GET", "/tool-describe?agent=main&id=email_send");
    expect(described.status).toBe(200);
    expect(described.body).toEqual(
      JSON.parse(JSON.stringify(await runner.describeTool?.("main", "email_send"))),
    );
    const schema = JSON.parse((described.body.answer as { output: string }).output) as {
      parameters: unknown;
    };
    expect(schema.parameters).toMatchObject({ required: ["to"] });
  });

  it("a repeated q is a batch (queries, each with its limit): the runner's answer, its own refusals as the model reads them", async () => {
    const { url, runner } = await startGateway();
    const alice = await signedIn(url, "alice");
    const batch = await alice.send("GET", "/tool-search?agent=main&q=send+an+email&limit=2&q=weather&limit=");
    expect(batch.status).toBe(200);
    const queries = [{ query: "send an email", limit: 2 }, { query: "weather" }];
    expect(batch.body.arguments).toEqual({ queries });
    expect(batch.body).toEqual(
      JSON.parse(JSON.stringify(await runner.searchTools?.({ agentId: "main", queries }))),
    );
    const answer = batch.body.answer as { output: string; isError: boolean };
    expect(answer.isError).toBe(false);
    const groups = JSON.parse(answer.output) as { results: Array<{ query: string }> };
    expect(groups.results.map((group) => group.query)).toEqual(["send an email", "weather"]);
    expect((batch.body.bytes as Record<string, number>).result).toBe(
      Buffer.byteLength(answer.output, "utf8"),
    );

    // Over the control's own budget (16 queries): answered with the refusal the model gets, not a 400.
    const seventeen = Array.from({ length: 17 }, (_, index) => `q=look${index}`).join("&");
    const over = await alice.send("GET", `/tool-search?agent=main&${seventeen}`);
    expect(over.status).toBe(200);
    expect(over.body.answer).toMatchObject({ isError: true, errorCode: "INVALID_REQUEST" });
    expect(over.body.answer).toEqual(
      (
        await runner.searchTools?.({
          agentId: "main",
          queries: Array.from({ length: 17 }, (_, index) => ({ query: `look${index}` })),
        })
      )?.answer,
    );

    // The route's own bounds: the count it sends at all, one limit per query, each query and limit as alone.
    const probes: Array<[string, string]> = [
      [
        `/tool-search?agent=main&${Array.from({ length: MAX_TOOL_BATCH_QUERIES + 1 }, () => "q=a").join("&")}`,
        "too_many_queries",
      ],
      ["/tool-search?agent=main&q=a&q=b&limit=1&limit=1&limit=1", "invalid_limit"],
      ["/tool-search?agent=main&q=a&q=%20", "query_missing"],
      [`/tool-search?agent=main&q=a&q=${"a".repeat(MAX_TOOL_QUERY_CHARS + 1)}`, "query_too_long"],
      ["/tool-search?agent=main&q=a&q=b&limit=&limit=0", "invalid_limit"],
    ];
    for (const [path, code] of probes) {
      const refused = await alice.send("GET", path);
      expect(refused.status, path).toBe(400);
      expect(errorOf(refused).code, path).toBe(code);
    }
    expect(String(errorOf(await alice.send("GET", "/tool-search?agent=main&q=a&q=%20")).message)).toContain(
      "query 2",
    );
  });

  it("an unknown tool is a 404 carrying the text the model would read; a direct-only one is the model's refusal", async () => {
    const { url } = await startGateway();
    const alice = await signedIn(url, "alice");
    const unknown = await alice.send("GET", "/tool-describe?agent=main&id=email_sendd");
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown)).toMatchObject({ code: "unknown_tool", type: "not_found_error" });
    expect(String(errorOf(unknown).message)).toContain("Did you mean: email_send");
    // A tool the model may not describe (direct-only) is answered as the model gets it.
    const directOnly = await alice.send("GET", "/tool-describe?agent=main&id=reply_now");
    expect(directOnly.status).toBe(200);
    expect(directOnly.body.answer).toMatchObject({ isError: true, errorCode: "DIRECT_ONLY_TOOL" });
  });

  it("refuses bad input with a 400 naming the fix", async () => {
    const { url } = await startGateway();
    const alice = await signedIn(url, "alice");
    const probes: Array<[string, string]> = [
      ["/tool-search?agent=main", "query_missing"],
      ["/tool-search?agent=main&q=", "query_missing"],
      ["/tool-search?agent=main&q=%20%20%09", "query_missing"],
      [`/tool-search?agent=main&q=${"a".repeat(MAX_TOOL_QUERY_CHARS + 1)}`, "query_too_long"],
      ["/tool-search?agent=main&q=mail&limit=0", "invalid_limit"],
      [`/tool-search?agent=main&q=mail&limit=${MAX_TOOL_SEARCH_LIMIT + 1}`, "invalid_limit"],
      ["/tool-search?agent=main&q=mail&limit=99999999999999999999", "invalid_limit"],
      ["/tool-search?agent=main&q=mail&limit=1e1", "invalid_limit"],
      ["/tool-search?agent=main&q=mail&limit=-3", "invalid_limit"],
      ["/tool-search?agent=main&q=mail&limit=2.5", "invalid_limit"],
      ["/tool-describe?agent=main", "tool_id_missing"],
      ["/tool-describe?agent=main&id=%20", "tool_id_missing"],
      [`/tool-describe?agent=main&id=${"x".repeat(MAX_TOOL_ID_CHARS + 1)}`, "tool_id_too_long"],
    ];
    for (const [path, code] of probes) {
      const answer = await alice.send("GET", path);
      expect(answer.status, path).toBe(400);
      expect(errorOf(answer).code, path).toBe(code);
      expect(String(errorOf(answer).message).length, path).toBeGreaterThan(10);
    }
    // The largest accepted values pass.
    const longest = await alice.send(
      "GET",
      `/tool-search?agent=main&q=${"a".repeat(MAX_TOOL_QUERY_CHARS)}&limit=${MAX_TOOL_SEARCH_LIMIT}`,
    );
    expect(longest.status).toBe(200);
    expect((await alice.send("GET", "/tool-search?agent=bad%2Fname&q=mail")).status).toBe(400);
  });

  it("need runs, an agent the key may use, a signed-in session and its CSRF token", async () => {
    const { url } = await startGateway();
    const paths = ["/tool-search?agent=main&q=weather", "/tool-describe?agent=main&id=email_send"];
    const reader = await signedIn(url, "reader");
    const approver = await signedIn(url, "approver");
    const helperOnly = await signedIn(url, "helperOnly");
    const alice = await signedIn(url, "alice");
    const ops = await signedIn(url, "ops");
    const anonymous = consoleClient(url);
    await anonymous.send("GET", "/session");
    for (const path of paths) {
      expect(errorOf(await reader.send("GET", path)).code, path).toBe("insufficient_scope");
      expect(errorOf(await approver.send("GET", path)).code, path).toBe("insufficient_scope");
      expect(errorOf(await helperOnly.send("GET", path)).code, path).toBe("agent_not_allowed");
      expect((await helperOnly.send("GET", path.replace("agent=main", "agent=helper"))).status).toBe(200);
      expect((await alice.send("GET", path.replace("agent=main", "agent=nobody"))).status, path).toBe(404);
      expect((await ops.send("GET", path)).status, path).toBe(200);
      expect(errorOf(await anonymous.send("GET", path)).code, path).toBe("console_login_required");
      const noCsrf = await alice.send("GET", path, { omit: [CSRF_HEADER] });
      expect(errorOf(noCsrf).code, path).toBe("csrf_token_invalid");
      const crossSite = await alice.send("GET", path, { headers: { "sec-fetch-site": "cross-site" } });
      expect(errorOf(crossSite).code, path).toBe("forbidden_origin");
    }
  });

  it("with Tool Search off the answer says so and carries only the bytes", async () => {
    const { url } = await startGateway({ toolSearch: false });
    const alice = await signedIn(url, "alice");
    const search = await alice.send("GET", "/tool-search?agent=main&q=weather");
    expect(search.status).toBe(200);
    expect(search.body.toolSearch).toMatchObject({ enabled: false });
    expect(search.body.answer).toBeUndefined();
    const bytes = search.body.bytes as Record<string, number>;
    expect(bytes.declared).toBe(bytes.everyTool);
    const described = await alice.send("GET", "/tool-describe?agent=main&id=email_send");
    expect(described.status).toBe(200);
    expect(described.body.answer).toBeUndefined();
  });
});
