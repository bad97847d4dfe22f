import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../core/catalog/index.js";
import { requireToolSearchSettings } from "../../core/tool-search/index.js";
import { completedValue, weatherTool } from "./code-mode.test-support.js";
import { codeModeAvailable } from "./code-mode-available.js";
import { prepareCodeModeSurface } from "./code-mode-surface.js";

const execute = async () => ({ content: [] });
const reply: ToolDefinition = { name: "reply_to_user", catalogMode: "direct-only", execute };

describe("codeModeAvailable", () => {
  it("proves on this machine that an isolated child starts and runs a cell", async () => {
    expect(await codeModeAvailable()).toEqual({ ok: true });
  });
});

describe("prepareCodeModeSurface", () => {
  it("offers exec, wait and the direct-only tools, over a ToolSearch with Tool Search off", async () => {
    const surface = await prepareCodeModeSurface({
      toolSearch: {
        tools: [weatherTool().tool, reply],
        settings: requireToolSearchSettings({ mode: "directory" }),
      },
      codeMode: { timeoutMs: 5_000 },
      available: async () => ({ ok: true }),
    });
    try {
      expect(surface.fallbackReason).toBeUndefined();
      expect(surface.toolSearch.enabled).toBe(false);
      expect(surface.toolSearch.directory()).toBeUndefined();
      expect(surface.modelTools().map((tool) => tool.name)).toEqual(["exec", "wait", "reply_to_user"]);
      const outcome = await surface.codeMode?.exec(
        "return await tools.callValue('get_forecast', { city: 'Oslo' });",
      );
      expect(completedValue(outcome ?? { status: "running", runId: "" })).toEqual({
        city: "Oslo",
        tempC: 21,
      });
    } finally {
      await surface.close();
    }
  });

  it("falls back to Tool Search in tools mode with a logged reason when no child can start", async () => {
    const lines: string[] = [];
    const surface = await prepareCodeModeSurface({
      toolSearch: {
        tools: [weatherTool().tool],
        settings: requireToolSearchSettings({ mode: "directory", searchDefaultLimit: 3 }),
      },
      log: (line) => lines.push(line),
      available: async () => ({ ok: false, reason: "permission model unsupported" }),
    });
    try {
      expect(surface.codeMode).toBeUndefined();
      expect(surface.fallbackReason).toBe(
        "Code Mode is not available (permission model unsupported); this run uses Tool Search in tools mode instead.",
      );
      expect(lines).toEqual([surface.fallbackReason]);
      expect(surface.toolSearch.enabled).toBe(true);
      expect(surface.toolSearch.mode).toBe("tools");
      expect(surface.modelTools().map((tool) => tool.name)).toEqual([
        "tool_search",
        "tool_describe",
        "tool_call",
      ]);
      expect(surface.toolSearch.search("forecast", { limit: 10 }).length).toBeLessThanOrEqual(10);
    } finally {
      await surface.close();
    }
  });

  it("declareOnly declares exactly a started surface's tools, without checking or starting a sandbox", async () => {
    const options = {
      toolSearch: {
        tools: [weatherTool().tool, reply],
        settings: requireToolSearchSettings({ mode: "directory" }),
      },
      codeMode: { timeoutMs: 5_000, contextWindowTokens: 32_000 },
    };
    const started = await prepareCodeModeSurface({ ...options, available: async () => ({ ok: true }) });
    let probes = 0;
    const looked = await prepareCodeModeSurface({
      ...options,
      declareOnly: true,
      available: async () => {
        probes += 1;
        return { ok: false, reason: "a look must not probe" };
      },
    });
    try {
      const shape = (tools: readonly ToolDefinition[]) =>
        tools.map(({ name, description, parameters, catalogMode }) => ({
          name,
          description,
          parameters,
          catalogMode,
        }));
      expect(shape(looked.modelTools())).toEqual(shape(started.modelTools()));
      expect(looked.modelTools().map((tool) => tool.name)).toEqual(["exec", "wait", "reply_to_user"]);
      expect(probes).toBe(0);
      expect(looked.codeMode).toBeUndefined();
      expect(looked.fallbackReason).toBeUndefined();
      expect(looked.toolSearch.enabled).toBe(false);
      const exec = looked.modelTools()[0];
      const result = await exec?.execute({ code: "return 1;" }, { signal: AbortSignal.timeout(5_000) });
      expect(result?.isError).toBe(true);
      expect(JSON.stringify(result?.details)).toContain("SANDBOX_UNAVAILABLE");
    } finally {
      await looked.close();
      await started.close();
    }
  });

  it("refuses a direct-only tool named like a Code Mode tool", async () => {
    const clash: ToolDefinition = { name: "exec", catalogMode: "direct-only", execute };
    const surface = await prepareCodeModeSurface({
      toolSearch: { tools: [clash], settings: requireToolSearchSettings(undefined) },
      available: async () => ({ ok: true }),
    });
    try {
      expect(() => surface.modelTools()).toThrow(
        /direct-only tool "exec" clashes with Code Mode's exec tool/u,
      );
    } finally {
      await surface.close();
    }
  });
});
