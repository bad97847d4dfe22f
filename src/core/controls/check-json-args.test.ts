import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { checkJsonArgs } from "./check-json-args.js";

function failure(args: Record<string, unknown>): { code: string; message: string } | undefined {
  try {
    checkJsonArgs(args, "native:core:echo");
  } catch (error) {
    if (isToolsiftError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level += 1) value = { child: value };
  return value;
}

describe("checkJsonArgs", () => {
  it("accepts JSON data, undefined values and shared (acyclic) references", () => {
    const shared = { a: 1 };
    expect(
      failure({
        text: "x".repeat(100_000),
        list: [1, "two", null, true, { deep: [[]] }],
        missing: undefined,
        left: shared,
        right: shared,
        __proto__: null,
      }),
    ).toBeUndefined();
    expect(failure(JSON.parse('{"__proto__": {"polluted": 1}}'))).toBeUndefined();
    expect(failure(nested(126))).toBeUndefined();
  });

  it.each([
    [
      { run: () => 1 },
      'Invalid arguments for tool "native:core:echo": args.run is a function, which is not JSON data; pass JSON values only.',
    ],
    [
      { big: 10n },
      'Invalid arguments for tool "native:core:echo": args.big is a bigint, which is not JSON data; pass JSON values only.',
    ],
    [
      { list: [1, Symbol("s")] },
      'Invalid arguments for tool "native:core:echo": args.list[1] is a symbol, which is not JSON data; pass JSON values only.',
    ],
    [
      { "odd key": { n: Number.NaN } },
      'Invalid arguments for tool "native:core:echo": args["odd key"].n is NaN, which is not JSON data; pass finite numbers only.',
    ],
    [
      { n: Number.POSITIVE_INFINITY },
      'Invalid arguments for tool "native:core:echo": args.n is Infinity, which is not JSON data; pass finite numbers only.',
    ],
    [
      nested(10_000),
      'Invalid arguments for tool "native:core:echo": args nest deeper than 128 levels (or contain a cycle); pass flatter JSON data.',
    ],
    [
      (() => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        return cyclic;
      })(),
      'Invalid arguments for tool "native:core:echo": args nest deeper than 128 levels (or contain a cycle); pass flatter JSON data.',
    ],
    [
      { many: new Array(200_001).fill(0) },
      'Invalid arguments for tool "native:core:echo": args hold more than 200000 values; pass less data per call.',
    ],
    [
      {
        get boom(): never {
          throw new Error("boom");
        },
      },
      'Invalid arguments for tool "native:core:echo": args could not be read; pass plain JSON data.',
    ],
    [
      {
        inner: (() => {
          const { proxy, revoke } = Proxy.revocable({}, {});
          revoke();
          return proxy;
        })(),
      },
      'Invalid arguments for tool "native:core:echo": args.inner could not be read; pass plain JSON data.',
    ],
  ])("refuses %#", (args, message) => {
    expect(failure(args as Record<string, unknown>)).toEqual({ code: "INVALID_ARGUMENTS", message });
  });

  it("bounds the path it quotes", () => {
    const message = failure({ ["k".repeat(20_000)]: () => 1 })?.message ?? "";
    expect(message.length).toBeLessThan(400);
    expect(message).toMatch(/^Invalid arguments for tool "native:core:echo": args\.kkk+\.\.\. is a function/);
  });
});
