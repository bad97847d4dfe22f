import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CORE_PRIMITIVE_NAMES, toCatalogEntry } from "../../core/catalog/index.js";
import { isToolsiftError } from "../../shared/errors/index.js";
import { coreToolsSettings, createCoreTools } from "./create-core-tools.js";

/** Names of the core tools, in the order createCoreTools returns them. */
const CORE_TOOL_NAMES: readonly string[] = ["read", "write", "edit", "exec"];

const workspace = path.join(os.tmpdir(), "toolsift-never-created");

describe("createCoreTools", () => {
  it("returns read, write, edit and exec as core tools with strict schemas", () => {
    const tools = createCoreTools({ workspace });
    expect(tools.map((tool) => tool.name)).toEqual([...CORE_TOOL_NAMES]);
    for (const tool of tools) {
      const entry = toCatalogEntry(tool);
      expect(entry?.id).toBe(`native:core:${tool.name}`);
      expect(entry?.fromCore).toBe(true);
      expect(CORE_PRIMITIVE_NAMES.has(tool.name)).toBe(true);
      expect(tool.parameters).toMatchObject({ type: "object", additionalProperties: false });
      expect((tool.description ?? "").length).toBeGreaterThan(40);
    }
  });

  it("runs read in parallel and the tools that change things one at a time", () => {
    const modes = Object.fromEntries(
      createCoreTools({ workspace }).map((tool) => [tool.name, tool.executionMode]),
    );
    expect(modes).toEqual({ read: "parallel", write: "sequential", edit: "sequential", exec: "sequential" });
  });

  it("fills in the documented defaults", () => {
    expect(coreToolsSettings({ workspace: "relative/ws" })).toEqual({
      workspace: path.resolve("relative/ws"),
      maxReadBytes: 1024 * 1024,
      maxWriteBytes: 1024 * 1024,
      execTimeoutMs: 30_000,
      maxExecOutputBytes: 64 * 1024,
    });
  });

  it("states the limits in the descriptions and the exec schema", () => {
    const [read, write, , exec] = createCoreTools({
      workspace,
      maxReadBytes: 1234,
      maxWriteBytes: 999,
      execTimeoutMs: 777,
    });
    expect(read?.description).toContain("1234 bytes");
    expect(write?.description).toContain("999 bytes");
    expect(exec?.parameters).toMatchObject({ properties: { timeoutMs: { maximum: 777 } } });
  });

  const badOptions: Array<[options: unknown, message: RegExp]> = [
    [{}, /needs a workspace directory/],
    [{ workspace: " " }, /needs a workspace directory/],
    [{ workspace, maxReadBytes: 0 }, /maxReadBytes must be a positive whole number \(got 0\)/],
    [{ workspace, execTimeoutMs: 1.5 }, /execTimeoutMs must be a positive whole number/],
    [{ workspace, maxExecOutputBytes: Number.NaN }, /maxExecOutputBytes must be a positive whole number/],
  ];

  it.each(badOptions)("refuses options %j with CONFIG_INVALID", (options, message) => {
    let thrown: unknown;
    try {
      createCoreTools(options as Parameters<typeof createCoreTools>[0]);
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toMatch(message);
  });
});
