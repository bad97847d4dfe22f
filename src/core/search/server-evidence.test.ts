import { describe, expect, it } from "vitest";
import { entriesOf } from "./search.test-support.js";
import { createSearchIndex } from "./search-index.js";
import { createServerEvidence } from "./server-evidence.js";

const mcp = (owner: string) => ({ kind: "mcp" as const, owner });

describe("server evidence", () => {
  it("lifts a tool whose server's other tools have the request's other words", () => {
    // Two identical tools; only the `zeta` server also has a tool about channels.
    const entries = entriesOf(
      { name: "send_note", description: "Send a note.", origin: mcp("alpha") },
      { name: "archive_note", description: "Archive a note.", origin: mcp("alpha") },
      { name: "send_note", description: "Send a note.", origin: mcp("zeta") },
      { name: "list_channels", description: "List the channels of a workspace.", origin: mcp("zeta") },
    );
    const ids = createSearchIndex(entries)
      .search("send a note to the channel", 4)
      .map((entry) => entry.id);
    // Without it the tie would go by id (alpha first).
    expect(ids.indexOf("mcp:zeta:send_note")).toBeLessThan(ids.indexOf("mcp:alpha:send_note"));
  });

  it("never lifts a weaker match above a tool that matches more of the request", () => {
    const entries = entriesOf(
      { name: "create_calendar_event", description: "Create a calendar event.", origin: mcp("calendar") },
      { name: "create_issue", description: "Create an issue.", origin: mcp("tracker") },
      { name: "list_issues", description: "List issues.", origin: mcp("tracker") },
      { name: "close_issue", description: "Close an issue.", origin: mcp("tracker") },
    );
    const names = createSearchIndex(entries)
      .search("create a calendar event", 2)
      .map((entry) => entry.name);
    expect(names[0]).toBe("create_calendar_event");
  });

  it("is off for a catalog of one server (it could not change any order)", () => {
    const oneServer = entriesOf({ name: "a", origin: mcp("s") }, { name: "b", origin: mcp("s") });
    expect(createServerEvidence(oneServer)).toBeUndefined();
    const twoServers = entriesOf({ name: "a", origin: mcp("s") }, { name: "a", origin: mcp("t") });
    expect(createServerEvidence(twoServers)).toBeDefined();
    // Source and owner make the server: a plugin and an MCP server of the same name are two.
    const sameOwner = entriesOf(
      { name: "a", origin: mcp("s") },
      { name: "b", origin: { kind: "plugin", owner: "s" } },
    );
    expect(createServerEvidence(sameOwner)).toBeDefined();
  });
});
