import { describe, expect, it } from "vitest";
import { createTestRuntime } from "./controls.test-support.js";
import { createControlTools } from "./create-control-tools.js";
import { controls, expectError, textOf, tools } from "./create-control-tools.test-support.js";
import type { ControlRuntime } from "./types.js";

describe("the controls never throw", () => {
  const deep = JSON.parse(`${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`) as unknown;
  const revoked = (() => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  })();
  const throwing = {
    get id(): never {
      throw new Error("getter");
    },
    get query(): never {
      throw new Error("getter");
    },
  };

  const probes: Array<[string, "search" | "describe" | "call", unknown, string, RegExp | string]> = [
    ["search: args not an object", "search", "weather", "INVALID_REQUEST", "provide query or queries."],
    ["search: null args", "search", null, "INVALID_REQUEST", "provide query or queries."],
    [
      "search: query of the wrong type",
      "search",
      { query: { text: "x" } },
      "INVALID_REQUEST",
      "query must be a string.",
    ],
    ["search: deep query", "search", { query: deep }, "INVALID_REQUEST", "query must be a string."],
    [
      "search: deep batch item",
      "search",
      { queries: [deep] },
      "INVALID_REQUEST",
      "queries[0].query must be a non-empty string.",
    ],
    [
      "search: BigInt limit",
      "search",
      { query: "x", limit: 5n },
      "INVALID_REQUEST",
      "limit must be a positive integer.",
    ],
    ["search: function query", "search", { query: () => "x" }, "INVALID_REQUEST", "query must be a string."],
    [
      "search: symbol queries",
      "search",
      { queries: Symbol("q") },
      "INVALID_REQUEST",
      "queries must be a non-empty array.",
    ],
    [
      "search: 20,000-character item",
      "search",
      { queries: [{ query: "x".repeat(20_000) }] },
      "INVALID_REQUEST",
      "queries[0].query must not exceed 512 characters.",
    ],
    ["search: throwing getter", "search", throwing, "INVALID_REQUEST", "provide query or queries."],
    ["search: revoked Proxy", "search", revoked, "INVALID_REQUEST", "provide query or queries."],
    [
      "search: __proto__",
      "search",
      JSON.parse('{"__proto__": {"query": "echo"}}'),
      "INVALID_REQUEST",
      "provide query or queries.",
    ],
    [
      "describe: id of the wrong type",
      "describe",
      { id: 7 },
      "INVALID_REQUEST",
      "id must be a non-empty string.",
    ],
    ["describe: deep id", "describe", { id: deep }, "INVALID_REQUEST", "id must be a non-empty string."],
    [
      "describe: huge id",
      "describe",
      { id: "q".repeat(20_000) },
      "UNKNOWN_TOOL",
      /^Unknown tool id: q{197}\.\.\.\. /,
    ],
    ["describe: undefined args", "describe", undefined, "INVALID_REQUEST", "id must be a non-empty string."],
    ["describe: throwing getter", "describe", throwing, "INVALID_REQUEST", "id must be a non-empty string."],
    [
      "call: args not an object",
      "call",
      { id: "echo", args: "text=hi" },
      "INVALID_REQUEST",
      /^args must be an object/,
    ],
    ["call: array args", "call", { id: "echo", args: [1] }, "INVALID_REQUEST", /^args must be an object/],
    ["call: request not an object", "call", 42, "INVALID_REQUEST", /^tool_call arguments must be an object/],
    [
      "call: undefined request",
      "call",
      undefined,
      "INVALID_REQUEST",
      /^tool_call arguments must be an object/,
    ],
    [
      "call: id of the wrong type",
      "call",
      { id: ["echo"] },
      "INVALID_REQUEST",
      "id must be a non-empty string.",
    ],
    [
      "call: huge id",
      "call",
      { id: "q".repeat(20_000) },
      "UNKNOWN_TOOL",
      /^Unknown tool id: q{197}\.\.\.\. /,
    ],
    [
      "call: 10,000 levels of nesting",
      "call",
      { id: "inspect", args: { deep } },
      "INVALID_ARGUMENTS",
      'Invalid arguments for tool "native:core:inspect": args nest deeper than 128 levels (or contain a cycle); pass flatter JSON data.',
    ],
    [
      "call: a function argument",
      "call",
      { id: "inspect", args: { run: () => 1 } },
      "INVALID_ARGUMENTS",
      /args\.run is a function, which is not JSON data/,
    ],
    [
      "call: a BigInt argument",
      "call",
      { id: "inspect", args: { n: 1n } },
      "INVALID_ARGUMENTS",
      /args\.n is a bigint/,
    ],
    [
      "call: a symbol argument",
      "call",
      { id: "inspect", args: { s: Symbol("s") } },
      "INVALID_ARGUMENTS",
      /args\.s is a symbol/,
    ],
    ["call: throwing getter", "call", throwing, "INVALID_REQUEST", /^tool_call arguments could not be read/],
    ["call: revoked Proxy", "call", revoked, "INVALID_REQUEST", /^tool_call arguments must be an object/],
  ];

  it.each(probes)("%s", async (_label, control, args, code, message) => {
    const set = controls();
    const result = await set[control].execute(args, {});
    expectError(result, code, message);
    expect(set.runtime.executions).toEqual([]);
  });

  it("passes __proto__ from JSON to the target as data, polluting nothing", async () => {
    const { call, runtime } = controls();
    const result = await call.execute(
      JSON.parse('{"id": "inspect", "args": {"__proto__": {"polluted": 1}}}'),
      {},
    );
    expect(result.isError).toBeUndefined();
    const args = runtime.executions[0]?.args as Record<string, unknown>;
    expect(Object.keys(args)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("passes undefined argument values and huge strings through", async () => {
    const { call, runtime } = controls();
    const huge = "x".repeat(1_000_000);
    const result = await call.execute({ id: "inspect", args: { huge, missing: undefined } }, {});
    expect(result.isError).toBeUndefined();
    expect(runtime.executions[0]?.args).toEqual({ huge, missing: undefined });
    expect((runtime.executions[0]?.args as { huge?: string } | undefined)?.huge).toBe(huge);
  });

  it("turns a host failure that is not a ToolsiftError into INTERNAL", async () => {
    const broken: ControlRuntime = {
      ...createTestRuntime(tools),
      snapshot: () => {
        throw new TypeError("host bug at /srv/app/secret.js:12");
      },
    };
    for (const control of createControlTools(broken)) {
      const result = await control.execute({ query: "x", id: "echo" }, {});
      expectError(result, "INTERNAL", /^Tool Search hit an internal error/);
      expect(textOf(result)).not.toContain("secret");
    }
  });

  it("fails closed on a closed catalog", async () => {
    const set = controls();
    set.runtime.close();
    for (const control of [set.search, set.describe, set.call]) {
      expectError(
        await control.execute({ query: "echo", id: "echo" }, {}),
        "CATALOG_CLOSED",
        "Tool Search catalog is unavailable for this run.",
      );
    }
  });

  it("treats a hostile context like an empty one", async () => {
    const { call, runtime } = controls();
    const result = await call.execute({ id: "inspect" }, revoked as never);
    expect(result.isError).toBeUndefined();
    expect(runtime.executions).toHaveLength(1);
  });
});
