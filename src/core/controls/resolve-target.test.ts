import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createTestRuntime, echoTool } from "./controls.test-support.js";
import { RECOVERY_HINT, resolveTarget } from "./resolve-target.js";

const tools = [
  echoTool("read", { description: "Read a file from the workspace." }),
  echoTool("write", { description: "Write a file to the workspace." }),
  echoTool("exec", { description: "Run a shell command." }),
  echoTool("get_forecast", {
    origin: { kind: "plugin", owner: "weather" },
    description: "Daily weather forecast.",
  }),
  echoTool("search", { origin: { kind: "plugin", owner: "alpha" }, description: "Search the web." }),
  echoTool("search", { origin: { kind: "mcp", owner: "beta" }, description: "Search documents." }),
];

function failure(idOrName: unknown, options: Parameters<typeof createTestRuntime>[1] = {}) {
  const runtime = createTestRuntime(tools, options);
  try {
    resolveTarget(runtime, idOrName);
  } catch (error) {
    if (isToolsiftError(error)) return { code: error.code, message: error.message, runtime };
    throw error;
  }
  return undefined;
}

describe("resolveTarget: finding the target", () => {
  it("finds an exact id first, then an exact unique name", () => {
    const runtime = createTestRuntime(tools);
    expect(resolveTarget(runtime, "native:core:read").id).toBe("native:core:read");
    expect(resolveTarget(runtime, "get_forecast").id).toBe("native:weather:get_forecast");
    expect(resolveTarget(runtime, "mcp:beta:search").id).toBe("mcp:beta:search");
    expect(resolveTarget(runtime, "  write \n").id).toBe("native:core:write");
  });

  it("prefers an id over a tool whose name equals that id", () => {
    const runtime = createTestRuntime([echoTool("native:core:x"), echoTool("x")]);
    expect(resolveTarget(runtime, "native:core:x").name).toBe("x");
  });

  it("is exact: case variants and prefixes are misses", () => {
    expect(failure("Read")?.code).toBe("UNKNOWN_TOOL");
    expect(failure("get_fore")?.code).toBe("UNKNOWN_TOOL");
  });

  it("refuses a name shared by two entries", () => {
    expect(failure("search")).toMatchObject({
      code: "AMBIGUOUS_TOOL",
      message: "Ambiguous tool name: search; use an exact tool id.",
    });
  });

  it("explains an unknown tool with suggestions and how to recover, executing nothing", () => {
    const miss = failure("file_write");
    expect(miss).toMatchObject({
      code: "UNKNOWN_TOOL",
      message: `Unknown tool id: file_write. Did you mean: write? ${RECOVERY_HINT}`,
    });
    expect(miss?.runtime.executions).toEqual([]);
    expect(RECOVERY_HINT).toMatch(/tool_search.*tool_describe.*tool_call.*exact id/);
  });

  it("suggests by name words, description words and containment, as ids where names repeat", () => {
    expect(failure("forecast")?.message).toContain("Did you mean: get_forecast?");
    expect(failure("readFile")?.message).toContain("Did you mean: read?");
    expect(failure("native:core:weather_forecast")?.message).toContain("Did you mean: get_forecast?");
    // both "search" tools contain the word; the one whose description also says "web" ranks first
    expect(failure("web_search")?.message).toContain("Did you mean: native:alpha:search, mcp:beta:search?");
    expect(failure("shell")?.message).toContain("Did you mean: exec?");
    const many = failure("workspace_file")?.message ?? "";
    expect(many).toContain("Did you mean: read, write?");
    expect(failure("zzz")?.message).toBe(`Unknown tool id: zzz. ${RECOVERY_HINT}`);
  });

  it("never offers more than three suggestions", () => {
    const runtime = createTestRuntime(
      Array.from({ length: 6 }, (_, index) =>
        echoTool(`report_${index}`, { description: "Makes a report." }),
      ),
    );
    try {
      resolveTarget(runtime, "report");
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).toContain("Did you mean: report_0, report_1, report_2?");
    }
  });

  it("says a skill is not a tool and where its instructions are", () => {
    const miss = failure("pdf-forms", {
      skills: [{ name: "pdf-forms", location: "/skills/pdf-forms/SKILL.md" }],
    });
    expect(miss?.code).toBe("SKILL_NOT_TOOL");
    expect(miss?.message).toBe(
      "pdf-forms is a skill, not a tool. Its instructions are in /skills/pdf-forms/SKILL.md: read them with `read` " +
        "at /skills/pdf-forms/SKILL.md, then follow them. Skills are not called through tool_call.",
    );
  });

  it("tells the model to call a direct-only tool of this turn directly", () => {
    const miss = failure("message", { directOnlyNames: ["message"] });
    expect(miss?.code).toBe("DIRECT_ONLY_TOOL");
    expect(miss?.message).toBe(
      "message is a direct-only tool for this turn, not a cataloged one: call message directly by its declared " +
        "name with its declared arguments, not through tool_call or tool_describe.",
    );
    expect(miss?.runtime.executions).toEqual([]);
    // hidden by a prompt-time restriction: no longer declared for the turn, so an ordinary miss
    expect(failure("message")?.code).toBe("UNKNOWN_TOOL");
  });

  it("answers hostile selectors with a clear, bounded error", () => {
    const huge = failure("x".repeat(20_000));
    expect(huge?.code).toBe("UNKNOWN_TOOL");
    expect(huge?.message.length).toBeLessThan(600);
    expect(huge?.message).toContain(`Unknown tool id: ${"x".repeat(197)}....`);
    for (const value of [undefined, null, 42, {}, ["read"], "", "   ", Symbol("s"), 10n]) {
      expect(failure(value)).toMatchObject({
        code: "INVALID_REQUEST",
        message: "id must be a non-empty string.",
      });
    }
  });

  it("fails closed when the catalog is closed", () => {
    const runtime = createTestRuntime(tools);
    runtime.close();
    try {
      resolveTarget(runtime, "read");
      expect.unreachable();
    } catch (error) {
      expect(isToolsiftError(error) && error.code).toBe("CATALOG_CLOSED");
      expect((error as Error).message).toBe("Tool Search catalog is unavailable for this run.");
    }
  });
});
