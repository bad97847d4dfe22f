import { describe, expect, it } from "vitest";
import { type CatalogEntry, toCatalogEntry } from "../catalog/index.js";
import { echoTool, recordingSchema } from "./controls.test-support.js";
import { describeEntry, describeText } from "./describe-entry.js";

function entry(...args: Parameters<typeof echoTool>): CatalogEntry {
  const made = toCatalogEntry(echoTool(...args));
  if (!made) throw new Error("test tool was not cataloged");
  return made;
}

const parameters = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const outputSchema = {
  type: "object",
  properties: { ok: { type: "boolean" } },
  required: ["ok"],
  additionalProperties: false,
};

describe("describeEntry", () => {
  it("returns the descriptor, the full parameters and a native output schema", () => {
    const description = describeEntry(entry("echo", { parameters, outputSchema, label: "Echo" }));
    expect(description).toEqual({
      id: "native:core:echo",
      source: "native",
      owner: "core",
      name: "echo",
      label: "Echo",
      description: "echo tool",
      input: "{ text: string }",
      output: "{ ok: boolean }",
      parameters,
      outputSchema,
    });
    expect(description.parameters).toBe(parameters);
  });

  it("gives {} for missing parameters and no outputSchema when none is declared", () => {
    const description = describeEntry(entry("bare"));
    expect(description.parameters).toEqual({});
    expect(description).not.toHaveProperty("outputSchema");
  });

  it("never returns an output schema for untrusted tools", () => {
    const description = describeEntry(
      entry("remote", { origin: { kind: "mcp", owner: "srv" }, parameters, outputSchema }),
    );
    expect(description).not.toHaveProperty("outputSchema");
    expect(description.input).toBe("unknown");
  });

  it("returns an untrusted schema as received, without reading it", () => {
    const { schema, reads } = recordingSchema();
    const description = describeEntry(
      entry("remote", { origin: { kind: "mcp", owner: "srv" }, parameters: schema }),
    );
    expect(description.parameters).toBe(schema);
    expect(reads).toEqual([]);
  });
});

describe("describeText", () => {
  it("is the description as compact JSON", () => {
    const description = describeEntry(entry("echo", { parameters }));
    expect(describeText(description)).toBe(JSON.stringify(description));
  });

  it("renders an untrusted Proxy schema only through serialisation", () => {
    const { schema, reads } = recordingSchema();
    const text = describeText(
      describeEntry(entry("remote", { origin: { kind: "mcp", owner: "srv" }, parameters: schema })),
    );
    expect(JSON.parse(text).parameters).toEqual({ type: "object" });
    expect(reads.length).toBeGreaterThan(0);
  });

  it.each([
    [
      "cyclic",
      (() => {
        const cyclic: Record<string, unknown> = { type: "object" };
        cyclic.self = cyclic;
        return cyclic;
      })(),
      /^\[schema not shown: not serialisable as JSON/,
    ],
    [
      "throwing",
      {
        get type(): never {
          throw new Error("boom");
        },
      },
      /^\[schema not shown: not serialisable as JSON/,
    ],
    ["BigInt", { type: "object", maximum: 10n }, /^\[schema not shown: not serialisable as JSON/],
    [
      "huge",
      { type: "object", description: "x".repeat(70_000) },
      /^\[schema not shown: larger than 65536 characters/,
    ],
    [
      "revoked Proxy",
      (() => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      })(),
      /^\[schema not shown: not serialisable as JSON/,
    ],
  ])("replaces a %s schema with a note instead of failing", (_label, schema, note) => {
    const text = describeText(
      describeEntry(
        entry("remote", {
          origin: { kind: "mcp", owner: "srv" },
          parameters: schema as Record<string, unknown>,
        }),
      ),
    );
    const parsed = JSON.parse(text) as { parameters: unknown; id: string };
    expect(parsed.id).toBe("mcp:srv:remote");
    expect(parsed.parameters).toMatch(note);
  });

  it("renders a native output schema through the same guard", () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.items = cyclic;
    const parsed = JSON.parse(
      describeText(describeEntry(entry("native", { parameters, outputSchema: cyclic }))),
    ) as {
      outputSchema: unknown;
      parameters: unknown;
    };
    expect(parsed.parameters).toEqual(parameters);
    expect(parsed.outputSchema).toMatch(/^\[schema not shown/);
  });
});
