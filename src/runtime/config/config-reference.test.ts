import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CONFIG_KEY_NOTES, renderConfigDocs } from "../../front-doors/cli/config-key-notes.js";
import { DEFAULT_GATEWAY_PORT } from "../../front-doors/gateway/index.js";
import { DEFAULT_TIMEOUT_MS } from "../providers/index.js";
import { configKeys, renderConfigReference } from "./config-reference.js";
import { validateConfig } from "./validate-config.js";

describe("docs/config.md", () => {
  it("is what the config schema and the key notes generate (run npm run docs:config after changing either)", async () => {
    const file = await readFile(new URL("../../../docs/config.md", import.meta.url), "utf8");
    expect(file).toBe(renderConfigDocs());
  });

  it("lists every key, nested ones and map entries included, with its default and an example", () => {
    const text = renderConfigDocs();
    expect(text).toContain(`| \`gateway.port\` | integer 0 to 65535 | ${DEFAULT_GATEWAY_PORT} | \`8080\` |`);
    expect(text).toContain(
      `| \`models.providers.<id>.timeoutMs\` | integer 1 to 86400000 | ${DEFAULT_TIMEOUT_MS} | \`300000\` |`,
    );
    expect(text).toContain(
      '| `models.providers.<id>.api` | `"openai-responses"`, `"openai-chat"`, `"anthropic-messages"` |',
    );
    expect(text).toContain("| `agents.list[].id` |");
    expect(text).toContain("| `mcp.servers.<id>.command` | non-empty string |");
    expect(text).toContain(
      "| `agents.list[].maxTurns` | integer 1 to 1000 | agents.defaults.maxTurns | `12` |",
    );
  });

  it("renders a key without a note with empty default and example cells", () => {
    expect(renderConfigReference({})).toContain("| `gateway.port` | integer 0 to 65535 |  |  |");
  });
});

describe("the key notes", () => {
  const keys = configKeys();

  it("name only keys of the schema", () => {
    const known = new Set(keys.map((entry) => entry.key));
    expect(Object.keys(CONFIG_KEY_NOTES).filter((key) => !known.has(key))).toEqual([]);
  });

  it("give every leaf key an example", () => {
    const leaves = keys.filter((entry) => entry.leaf).map((entry) => entry.key);
    expect(leaves.length).toBeGreaterThan(60);
    expect(leaves.filter((key) => CONFIG_KEY_NOTES[key]?.example === undefined)).toEqual([]);
  });

  it("give examples the config accepts: one config made of every example validates", () => {
    const config: Record<string, unknown> = {};
    for (const [key, note] of Object.entries(CONFIG_KEY_NOTES)) {
      if (note.example === undefined) continue;
      setPath(config, key.split("."), note.example);
    }
    // The example model's provider and the listed agents' ids must exist for the config to be consistent.
    setPath(config, ["models", "providers", "anthropic", "api"], "anthropic-messages");
    setPath(config, ["models", "providers", "ollama", "api"], "openai-chat");
    // A server has either a command (stdio) or a url (Streamable HTTP): the url examples make a second one.
    const servers = (config.mcp as { servers: Record<string, Record<string, unknown>> }).servers;
    const { url, headers, ...stdio } = servers.example ?? {};
    servers.example = stdio;
    servers.remote = { url, headers };
    expect(validateConfig(config)).toEqual([]);
  });
});

/** Sets `segments` in `target`, making `<id>` a map key `example` and `name[]` a one-item list. */
function setPath(target: Record<string, unknown>, segments: string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  segments.forEach((raw, index) => {
    const last = index === segments.length - 1;
    const list = raw.endsWith("[]");
    const name = raw === "<id>" ? "example" : list ? raw.slice(0, -2) : raw;
    if (last) {
      node[name] = value;
      return;
    }
    if (node[name] === undefined) node[name] = list ? [{}] : {};
    const next = node[name];
    node = (Array.isArray(next) ? next[0] : next) as Record<string, unknown>;
  });
}
