import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createCatalogSnapshot, toCatalogEntry } from "../catalog/index.js";
import { echoTool } from "./controls.test-support.js";
import { repairCallArguments } from "./repair-call-arguments.js";

const snapshot = createCatalogSnapshot(
  [
    echoTool("echo"),
    echoTool("configure", {
      parameters: { type: "object", properties: { parameters: { type: "object" } } },
    }),
    echoTool("mcp_like", { origin: { kind: "mcp", owner: "srv" } }),
    echoTool("inspect"),
    echoTool("dup", { origin: { kind: "plugin", owner: "a" } }),
    echoTool("dup", { origin: { kind: "plugin", owner: "b" } }),
  ].flatMap((tool) => {
    const entry = toCatalogEntry(tool);
    return entry ? [entry] : [];
  }),
);

function repair(raw: unknown) {
  return repairCallArguments(raw, snapshot);
}

function failure(raw: unknown): { code: string; message: string } | undefined {
  try {
    repair(raw);
  } catch (error) {
    if (isToolsiftError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

describe("repairCallArguments", () => {
  it.each([
    [
      "the canonical form",
      { id: "native:core:echo", args: { text: "hi" } },
      "native:core:echo",
      { text: "hi" },
    ],
    ["a name as id", { id: "echo", args: { text: "hi" } }, "native:core:echo", { text: "hi" }],
    ["no args", { id: "echo" }, "native:core:echo", {}],
    ["empty args", { id: "echo", args: {} }, "native:core:echo", {}],
    ["null args", { id: "echo", args: null }, "native:core:echo", {}],
    ["nested input", { id: "echo", input: { text: "hi" } }, "native:core:echo", { text: "hi" }],
    [
      "nested args winning over input (input stays a target argument)",
      { id: "echo", args: { text: "hi" }, input: { other: 1 } },
      "native:core:echo",
      { input: { other: 1 }, text: "hi" },
    ],
    [
      "an input that is not an object stays a target argument",
      { id: "echo", input: "hello" },
      "native:core:echo",
      { input: "hello" },
    ],
    ["flattened arguments", { id: "native:core:echo", text: "hi" }, "native:core:echo", { text: "hi" }],
    ["dotted keys", { id: "echo", "args.text": "hi", "args.n": 1 }, "native:core:echo", { text: "hi", n: 1 }],
    [
      "nested winning over dotted, per field",
      { id: "echo", args: { text: "nested" }, "args.text": "dotted", "args.n": 1 },
      "native:core:echo",
      { text: "nested", n: 1 },
    ],
    [
      "a flattened key winning over its dotted twin, per field",
      { id: "echo", "args.path": "a", path: "b", "args.n": 1 },
      "native:core:echo",
      { path: "b", n: 1 },
    ],
    [
      "null args and flattened arguments",
      { id: "echo", args: null, text: "hi" },
      "native:core:echo",
      { text: "hi" },
    ],
    [
      "null input and flattened arguments",
      { id: "echo", input: null, text: "hi" },
      "native:core:echo",
      { text: "hi" },
    ],
    [
      "a payload double-wrapped in input",
      { input: { id: "echo", args: { text: "hi" } } },
      "native:core:echo",
      { text: "hi" },
    ],
    [
      "a flattened payload wrapped in input, siblings kept",
      { input: { id: "echo", text: "hi" }, reason: "outer" },
      "native:core:echo",
      { reason: "outer", text: "hi" },
    ],
    [
      "flat siblings beside nested args",
      { id: "echo", args: { text: "hi" }, extra: true },
      "native:core:echo",
      { extra: true, text: "hi" },
    ],
    [
      "a selector key that names no entry stays a target argument",
      { toolId: "inspect", id: "record-7" },
      "native:core:inspect",
      { id: "record-7" },
    ],
    ["name as the selector", { name: "inspect", query: "x" }, "native:core:inspect", { query: "x" }],
    [
      "selectors agreeing on one tool",
      { id: "native:core:echo", name: "echo", text: "hi" },
      "native:core:echo",
      { text: "hi" },
    ],
    ["an ambiguous name narrowed by an exact id", { id: "native:a:dup", name: "dup" }, "native:a:dup", {}],
    ["an ambiguous name alone (resolution reports it)", { id: "dup" }, "dup", {}],
    ["an unknown id (resolution reports it)", { id: "file_write", path: "/x" }, "file_write", { path: "/x" }],
    [
      "a double-wrapped payload",
      { args: { id: "echo", args: { text: "hi" } } },
      "native:core:echo",
      { text: "hi" },
    ],
    [
      "a double-wrapped payload keeping its siblings",
      { args: { id: "echo", args: { text: "hi" }, mode: "inner" }, reason: "outer" },
      "native:core:echo",
      { reason: "outer", mode: "inner", text: "hi" },
    ],
    [
      "a double-wrapped flattened payload",
      { args: { id: "echo", text: "hi" } },
      "native:core:echo",
      { text: "hi" },
    ],
    [
      "arguments holding the target's arguments (no such property in the schema)",
      { id: "echo", arguments: { text: "hi" } },
      "native:core:echo",
      { text: "hi" },
    ],
    [
      "parameters holding the target's arguments, flat siblings merged below them",
      { id: "echo", parameters: { text: "hi" }, mode: "flat" },
      "native:core:echo",
      { mode: "flat", text: "hi" },
    ],
    [
      "arguments as JSON text of an object",
      { id: "echo", arguments: '{"text":"hi"}' },
      "native:core:echo",
      { text: "hi" },
    ],
    [
      "parameters kept as the argument a schema declares",
      { id: "configure", parameters: { level: 2 } },
      "native:core:configure",
      { parameters: { level: 2 } },
    ],
    [
      "arguments unwrapped while parameters is a declared property",
      { id: "configure", arguments: { parameters: { level: 2 } } },
      "native:core:configure",
      { parameters: { level: 2 } },
    ],
    [
      "args winning over arguments (arguments stays a target argument)",
      { id: "echo", args: { text: "hi" }, arguments: { other: 1 } },
      "native:core:echo",
      { arguments: { other: 1 }, text: "hi" },
    ],
    [
      "arguments on an untrusted tool without properties",
      { id: "mcp_like", arguments: { text: "hi" } },
      "mcp:srv:mcp_like",
      { text: "hi" },
    ],
    [
      "arguments that are not an object stay a target argument",
      { id: "echo", arguments: "plain words" },
      "native:core:echo",
      { arguments: "plain words" },
    ],
    [
      "arguments beside an ambiguous name stay (resolution reports the name)",
      { id: "dup", arguments: { text: "hi" } },
      "dup",
      { arguments: { text: "hi" } },
    ],
    [
      "a payload double-wrapped in arguments",
      { arguments: { id: "echo", args: { text: "hi" } } },
      "native:core:echo",
      { text: "hi" },
    ],
    ["args as JSON text of an object", { id: "echo", args: '{"to":"a"}' }, "native:core:echo", { to: "a" }],
    ["args as JSON text of an empty object", { id: "echo", args: " {} " }, "native:core:echo", {}],
  ])("repairs %s", (_label, raw, selector, args) => {
    const repaired = repair(raw);
    expect(repaired.selector).toBe(selector);
    expect(repaired.args).toEqual(args);
    expect(Object.getPrototypeOf(repaired.args)).toBe(Object.prototype);
  });

  it.each([
    [{}, "id must be a non-empty string."],
    [{ id: "" }, "id must be a non-empty string."],
    [{ id: "   " }, "id must be a non-empty string."],
    [{ id: 42, args: {} }, "id must be a non-empty string."],
    [{ args: { text: "hi" } }, "id must be a non-empty string."],
    [{ args: { args: { id: "echo", args: { text: "hi" } } } }, "id must be a non-empty string."],
    [{ id: "", args: { id: "echo" } }, "id must be a non-empty string."],
    [{ id: 7, args: { id: "echo", args: { text: "hi" } } }, "id must be a non-empty string."],
    [{ id: "  ", input: { id: "echo" } }, "id must be a non-empty string."],
    [
      { id: "echo", toolId: "inspect" },
      "Ambiguous tool selectors: pass the target tool id and nest target arguments under args.",
    ],
    [
      { id: "native:a:dup", name: "native:b:dup" },
      "Ambiguous tool selectors: pass the target tool id and nest target arguments under args.",
    ],
    [{ id: "echo", args: "text=hi" }, expect.stringMatching(/^args must be an object/)],
    [{ id: "echo", args: ["hi"] }, expect.stringMatching(/^args must be an object/)],
    [{ id: "echo", args: '["hi"]' }, expect.stringMatching(/^args must be an object/)],
    [{ id: "echo", args: '{"to": ' }, expect.stringMatching(/^args must be an object.*"args": \{ "city"/)],
    [{ id: "echo", args: 5 }, expect.stringMatching(/^args must be an object/)],
    [null, expect.stringMatching(/^tool_call arguments must be an object/)],
    ["echo", expect.stringMatching(/^tool_call arguments must be an object/)],
    [["echo"], expect.stringMatching(/^tool_call arguments must be an object/)],
  ])("refuses %j", (raw, message) => {
    expect(failure(raw)).toEqual({ code: "INVALID_REQUEST", message });
  });

  it("keeps __proto__ keys as data and pollutes nothing", () => {
    for (const json of [
      '{"id": "echo", "args": {"__proto__": {"polluted": 1}}}',
      '{"id": "echo", "__proto__": {"polluted": 1}}',
      '{"id": "echo", "args.__proto__": {"polluted": 1}}',
      '{"args": {"id": "echo", "__proto__": {"polluted": 1}, "args": {"__proto__": {"polluted": 2}}}}',
    ]) {
      const { args } = repair(JSON.parse(json));
      expect(Object.keys(args)).toEqual(["__proto__"]);
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect((args as { polluted?: unknown }).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("polluted");
    }
  });

  it("refuses unreadable arguments with a clear error", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(failure(proxy)?.code).toBe("INVALID_REQUEST");
    const throwing = new Proxy(
      { id: "echo" },
      {
        ownKeys() {
          throw new Error("boom");
        },
      },
    );
    expect(failure(throwing)).toEqual({
      code: "INVALID_REQUEST",
      message: "tool_call arguments could not be read: pass plain JSON data.",
    });
  });

  it("passes nested values through by reference (only the top level is copied)", () => {
    const deep = { list: [1, 2, 3] };
    const { args } = repair({ id: "echo", args: { deep } });
    expect(args.deep).toBe(deep);
  });
});
