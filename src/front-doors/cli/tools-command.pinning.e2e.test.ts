import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFakePlugin } from "../../dev/qa/index.js";
import { stdioFixture } from "../../runtime/mcp-client/mcp.test-support.js";
import { createCliHome, runBuiltCli } from "./built-cli.test-support.js";

let root = "";
let env: NodeJS.ProcessEnv = {};

const run = (...args: string[]) => runBuiltCli(args, env);

beforeAll(async () => {
  ({ root, env } = await createCliHome("toolsift-pins-", async (dir) => {
    const pluginDir = await writeFakePlugin(join(dir, "plugins", "fake-plugin"));
    return {
      plugins: { load: { paths: [pluginDir] } },
      tools: { toolSearch: { alwaysVisible: ["fake_plugin_tool_03", "no_such_tool"] } },
      mcp: {
        servers: {
          crm: { ...stdioFixture({ prefix: "crm", count: 3 }), alwaysVisible: ["crm_create_contact"] },
        },
      },
    };
  }));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("toolsift tools shows what is pinned", () => {
  it("lists pinned native and MCP tools, and pins that keep nothing visible", async () => {
    const outcome = await run("tools");
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(
      "pinned (alwaysVisible, 2): fake_plugin_tool_03 (native:fake-plugin:fake_plugin_tool_03), crm__crm_create_contact (mcp:crm:crm_create_contact)",
    );
    expect(outcome.stdout).toContain("pinned but not visible: no_such_tool");
    const declaredLine =
      outcome.stdout.split("\n").find((line) => line.startsWith("declared to the model")) ?? "";
    expect(declaredLine).toContain("fake_plugin_tool_03");
    expect(declaredLine).toContain("crm__crm_create_contact");
    expect(declaredLine).not.toContain("crm_list_contact");
  });

  it("adds the pins to the JSON surface", async () => {
    const outcome = await run("tools", "--json");
    expect(outcome.code).toBe(0);
    const surface = JSON.parse(outcome.stdout) as { pinned: Array<{ id: string; declaredAs: string }> };
    expect(surface.pinned).toEqual([
      { id: "native:fake-plugin:fake_plugin_tool_03", declaredAs: "fake_plugin_tool_03" },
      { id: "mcp:crm:crm_create_contact", declaredAs: "crm__crm_create_contact" },
    ]);
    // Pinned tools are declared directly: the surface says so under their catalog ids.
    const tools = (JSON.parse(outcome.stdout) as { tools: Array<{ id: string; visibility: string }> }).tools;
    const visibility = (id: string) => tools.find((tool) => tool.id === id)?.visibility;
    expect(visibility("mcp:crm:crm_create_contact")).toBe("direct");
    expect(visibility("native:fake-plugin:fake_plugin_tool_03")).toBe("direct");
    expect(visibility("mcp:crm:crm_list_contact")).toBe("catalog");
  });
});
