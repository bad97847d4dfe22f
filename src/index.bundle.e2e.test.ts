import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, LIBRARY_ENTRY, traceNode } from "./module-trace.test-support.js";

let scratch = "";

beforeAll(async () => {
  ensureBuilt();
  scratch = await mkdtemp(join(tmpdir(), "toolsift-bundle-"));
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Runs `program` (ES module text that imports the shipped entry as `toolsift`) in a plain node child, traced. */
function runWithShippedEntry(name: string, program: string) {
  const source = `const toolsift = await import(${JSON.stringify(LIBRARY_ENTRY)});\n${program}`;
  return traceNode(["--input-type=module", "-e", source], join(scratch, `${name}.jsonl`));
}

/** The program of the round trip below: one weather tool, searched and called directly and from a cell. */
const ROUND_TRIP = `
const calls = [];
const weather = {
  name: "get_forecast",
  origin: { kind: "plugin", owner: "weather" },
  description: "Get the weather forecast for a city.",
  parameters: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  execute: async (args) => {
    calls.push(args);
    return { content: [{ type: "text", text: "Sunny in " + args.city + "." }] };
  },
};
const toolSearch = toolsift.createToolSearch({ tools: [weather] });
const found = toolSearch.search("weather forecast for a city").map((candidate) => candidate.id);
const called = await toolSearch.call(found[0], { city: "Oslo" });
let invalid;
try {
  await toolSearch.call(found[0], { city: 5 });
} catch (error) {
  invalid = { isToolsiftError: toolsift.isToolsiftError(error), isInstance: error instanceof toolsift.ToolsiftError, code: error.code };
}
toolSearch.close();
const codeMode = toolsift.createCodeMode({
  toolSearch: toolsift.createToolSearch({ tools: [weather], codeModeEnabled: true }),
});
const outcome = await codeMode.exec(
  'const hits = await tools.search("weather forecast", { limit: 1 });' +
    'const envelope = await tools.call(hits[0].id, { city: "Bergen" });' +
    "return envelope.result.content[0].text;",
);
await codeMode.close();
process.stdout.write(JSON.stringify({ found, text: called.result.content[0].text, invalid, outcome, calls }));
`;

describe("the shipped library entry (dist/index.js, bundled by scripts/bundle-library-entry.mjs)", () => {
  it("exports exactly the names of src/index.ts, each of the same kind", async () => {
    const source: Record<string, unknown> = await import("./index.js");
    const expected = Object.keys(source)
      .sort()
      .map((name) => [name, typeof source[name]]);
    const shipped = await runWithShippedEntry(
      "exports",
      "process.stdout.write(JSON.stringify(Object.keys(toolsift).sort().map((name) => [name, typeof toolsift[name]])));",
    );
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(JSON.parse(shipped.stdout)).toEqual(expected);
  });

  it("runs createToolSearch (search, a validated call, a refused call) and a real Code Mode cell", async () => {
    const traced = await runWithShippedEntry("round-trip", ROUND_TRIP);
    expect(traced.code, traced.stderr).toBe(0);
    expect(JSON.parse(traced.stdout)).toEqual({
      found: ["native:weather:get_forecast"],
      text: "Sunny in Oslo.",
      invalid: { isToolsiftError: true, isInstance: true, code: "INVALID_ARGUMENTS" },
      outcome: { status: "completed", value: "Sunny in Bergen.", logs: [] },
      calls: [{ city: "Oslo" }, { city: "Bergen" }],
    });
    // All of it ran from the bundle: none of tsc's per-folder files was loaded, and the Code Mode child
    // module came as its lazy chunk, bringing zod; ajv was found from the bundle's own location.
    expect(traced.ownFiles.filter((file) => !file.startsWith("dist/index"))).toEqual([]);
    expect(traced.ownFiles).toContainEqual(
      expect.stringMatching(/^dist\/index-chunks\/cell-child-[\w-]+\.js$/u),
    );
    expect(traced.firstImporters.zod).toMatch(/^dist\/index-chunks\/cell-child-[\w-]+\.js$/u);
    expect(traced.packages).toEqual(expect.arrayContaining(["ajv", "zod"]));
  });
});
