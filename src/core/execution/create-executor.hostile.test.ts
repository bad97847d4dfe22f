import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import type { CatalogEntry, JsonSchema } from "../catalog/index.js";
import { createExecutor, type Executor } from "./create-executor.js";
import { entryOf, makeExecutor, makeTool, textResult } from "./execution.test-support.js";

const surface = { surface: "control" as const };

/** Settles a call and says how: a resolved result or a ToolsiftError; anything else fails the test. */
async function outcome(executor: Executor, entry: CatalogEntry, args: unknown) {
  try {
    return { ok: true as const, result: await executor.execute(entry, args, surface) };
  } catch (error) {
    expect(isToolsiftError(error)).toBe(true);
    return { ok: false as const, error: error as Error & { code: string } };
  }
}

function nested(levels: number): unknown {
  let value: unknown = { leaf: true };
  for (let index = 0; index < levels; index += 1) value = { child: value };
  return value;
}

const throwingProxy = new Proxy(
  {},
  {
    get() {
      throw new Error("trap");
    },
    ownKeys() {
      throw new Error("trap");
    },
    getOwnPropertyDescriptor() {
      throw new Error("trap");
    },
    has() {
      throw new Error("trap");
    },
  },
);
const revoked = Proxy.revocable({}, {});
revoked.revoke();

const closedSchema = {
  type: "object",
  properties: { text: { type: "string" }, count: { type: "integer" } },
  additionalProperties: false,
};
const openSchema = { type: "object" };
const recursiveSchema = { type: "object", properties: { child: { $ref: "#" }, leaf: { type: "boolean" } } };

describe("hostile arguments never escape execute as anything but a ToolsiftError", () => {
  const probes: Array<[string, unknown, unknown, "ok" | string]> = [
    [
      "__proto__ key vs closed schema",
      JSON.parse('{"__proto__": {"polluted": 1}}'),
      closedSchema,
      "INVALID_ARGUMENTS",
    ],
    ["__proto__ key vs open schema", JSON.parse('{"__proto__": {"polluted": 1}}'), openSchema, "ok"],
    [
      "constructor.prototype keys",
      JSON.parse('{"constructor": {"prototype": {"polluted": 1}}}'),
      openSchema,
      "ok",
    ],
    ["10,000 levels vs open schema", nested(10_000), openSchema, "ok"],
    ["10,000 levels vs recursive schema", nested(10_000), recursiveSchema, "INVALID_ARGUMENTS"],
    ["a function value", { text: () => "x" }, closedSchema, "INVALID_ARGUMENTS"],
    ["a BigInt value", { count: 10n }, closedSchema, "INVALID_ARGUMENTS"],
    ["a symbol value", { text: Symbol("s") }, closedSchema, "INVALID_ARGUMENTS"],
    ["non-JSON values vs open schema", { f: () => 1, b: 1n, s: Symbol("s"), u: undefined }, openSchema, "ok"],
    ["a 10 MB string", { text: "x".repeat(10_000_000) }, closedSchema, "ok"],
    ["a 1 MB unexpected key", { ["k".repeat(1_000_000)]: 1 }, closedSchema, "INVALID_ARGUMENTS"],
    ["a throwing Proxy", throwingProxy, closedSchema, "INVALID_ARGUMENTS"],
    ["a revoked Proxy", revoked.proxy, closedSchema, "INVALID_ARGUMENTS"],
    ["a function as the arguments", () => 1, closedSchema, "INVALID_ARGUMENTS"],
  ];
  it.each(probes)("%s", async (_name, args, parameters, expected) => {
    const entry = entryOf(makeTool("t", { parameters: parameters as JsonSchema }));
    const { executor } = makeExecutor([entry]);
    const got = await outcome(executor, entry, args);
    if (expected === "ok") expect(got.ok).toBe(true);
    else {
      expect(got.ok).toBe(false);
      if (!got.ok) {
        expect(got.error.code).toBe(expected);
        expect(got.error.message.length).toBeLessThan(1_000);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("passes hostile arguments to MCP tools untouched (their boundary validates them)", async () => {
    const tool = makeTool("remote", { origin: { kind: "mcp", owner: "srv" }, parameters: closedSchema });
    const entry = entryOf(tool);
    const { executor } = makeExecutor([entry]);
    const args = { f: () => 1, deep: nested(10_000) };
    expect((await outcome(executor, entry, args)).ok).toBe(true);
    expect(tool.calls[0]).toBe(args);
  });
});

describe("hostile tools and hooks", () => {
  const thrownValues: Array<[string, unknown, string]> = [
    ["undefined", undefined, "unknown error"],
    ["a string", "plain string", "plain string"],
    ["a symbol", Symbol("sym"), "Symbol(sym)"],
    ["a throwing Proxy", throwingProxy, "unknown error"],
    ["a revoked Proxy", revoked.proxy, "unknown error"],
    [
      "an error with a throwing message getter",
      Object.defineProperty(new Error("x"), "message", {
        get() {
          throw new Error("trap");
        },
      }),
      "unknown error",
    ],
  ];
  it.each(thrownValues)("turns a thrown %s into TOOL_FAILED", async (_name, thrown, message) => {
    const entry = entryOf(
      makeTool("t", {
        execute: async () => {
          throw thrown;
        },
      }),
    );
    const { executor } = makeExecutor([entry]);
    const got = await outcome(executor, entry, {});
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.error.message).toBe(`Tool "native:core:t" failed: ${message}`);
  });

  const hostileResults: Array<[string, unknown, string]> = [
    ["a throwing Proxy", throwingProxy, 'Tool "native:core:t" failed: trap'],
    // Awaiting the value reads its `then`, which throws: the tool counts as failed.
    [
      "a revoked Proxy",
      revoked.proxy,
      "Tool \"native:core:t\" failed: Cannot perform 'get' on a proxy that has been revoked",
    ],
    [
      "a Proxy as content",
      { content: throwingProxy },
      'Tool "native:core:t" returned a malformed result: content is not an array.',
    ],
    [
      "an array-like content",
      { content: { length: 1, 0: { type: "text", text: "x" } } },
      'Tool "native:core:t" returned a malformed result: content is not an array.',
    ],
  ];
  it.each(hostileResults)("turns %s as a result into TOOL_FAILED", async (_name, result, message) => {
    const entry = entryOf(makeTool("t", { execute: async () => result as never }));
    const { executor } = makeExecutor([entry]);
    const got = await outcome(executor, entry, {});
    expect(got.ok).toBe(false);
    if (!got.ok) {
      expect(got.error.code).toBe("TOOL_FAILED");
      expect(got.error.message).toBe(message);
    }
  });

  it("blocks when a hook property getter throws (fail closed)", async () => {
    const tool = makeTool("t");
    const entry = entryOf(tool);
    const hooks = Object.defineProperty({}, "checkPolicy", {
      enumerable: true,
      get() {
        throw new Error("getter trap");
      },
    });
    const executor = createExecutor({ hooks, isAvailable: () => true });
    const got = await outcome(executor, entry, {});
    expect(got.ok).toBe(false);
    if (!got.ok)
      expect(got.error.message).toBe('Tool "native:core:t" was blocked: policy check failed: getter trap');
    expect(tool.calls).toHaveLength(0);
  });

  it("blocks when a hook answers with a thenable that throws", async () => {
    const entry = entryOf(makeTool("t"));
    // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the probe
    const hostileThenable = Object.defineProperty({}, "then", {
      get() {
        throw new Error("then trap");
      },
    });
    const { executor } = makeExecutor([entry], {
      hooks: { requestApproval: () => hostileThenable as never },
    });
    const got = await outcome(executor, entry, {});
    expect(got.ok).toBe(false);
    if (!got.ok)
      expect(got.error.message).toBe('Tool "native:core:t" was blocked: approval request failed: then trap');
  });

  it("rejects with INTERNAL, never a raw error, when called with a broken entry", async () => {
    const { executor } = makeExecutor([]);
    for (const entry of [null, undefined, 5]) {
      const got = await outcome(executor, entry as never, {});
      expect(got.ok).toBe(false);
    }
    const closedOver = await outcome(executor, null as never, {});
    if (!closedOver.ok) expect(closedOver.error.code).toBe("INTERNAL");
  });

  it("survives missing or odd call options", async () => {
    const entry = entryOf(makeTool("t", { execute: async () => textResult("fine") }));
    const { executor, finished } = makeExecutor([entry]);
    await expect(executor.execute(entry, {}, undefined as never)).resolves.toEqual(textResult("fine"));
    await expect(
      executor.execute(entry, {}, { surface: "nonsense", signal: "nope", toolCallId: 5 } as never),
    ).resolves.toEqual(textResult("fine"));
    expect(finished.map((activity) => activity.surface)).toEqual(["direct", "direct"]);
  });
});
