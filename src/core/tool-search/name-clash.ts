import { ToolsiftError } from "../../shared/errors/index.js";
import type { CatalogSnapshot } from "../catalog/index.js";

/**
 * In directory mode exact names dispatch deferred calls, so a client tool may not share a name with a
 * native or MCP tool: the run is refused with an error naming both.
 */
export function assertNoClientNameClash(snapshot: CatalogSnapshot): void {
  for (const entry of snapshot.entries) {
    if (entry.source !== "client") continue;
    const other = snapshot.withName(entry.name).find((candidate) => candidate.source !== "client");
    if (other) {
      throw new ToolsiftError(
        "NAME_CONFLICT",
        `Client tool "${entry.id}" has the same name as "${other.id}". In directory mode exact names dispatch ` +
          'deferred calls, so rename the client tool or set tools.toolSearch.mode to "tools".',
      );
    }
  }
}
