import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderConfigReference } from "./config-reference.js";

describe("docs/config.md", () => {
  it("is what the config schema generates (run npm run docs:config after changing the schema)", async () => {
    const file = await readFile(new URL("../../../docs/config.md", import.meta.url), "utf8");
    expect(file).toBe(renderConfigReference());
  });

  it("lists every key, nested ones and map entries included, with its default where it has one", () => {
    const text = renderConfigReference();
    expect(text).toContain("| `gateway.port` | integer 0 to 65535 | 18789 |");
    expect(text).toContain(
      '| `models.providers.<id>.api` | `"openai-responses"`, `"openai-chat"`, `"anthropic-messages"` |',
    );
    expect(text).toContain("| `agents.list[].id` |");
    expect(text).toContain("| `mcp.servers.<id>.command` | non-empty string |");
  });
});
