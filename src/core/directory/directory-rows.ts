import { collapseWhitespace } from "../../shared/text/index.js";
import { type CatalogEntry, compareCodeUnits } from "../catalog/index.js";
import { NO_DESCRIPTION } from "./directory-text.js";
import { MAX_LISTED_NAME_CHARS } from "./limits.js";

/** One listable row: `- name (owner)` and its one-line description. */
export interface DirectoryRow {
  readonly name: string;
  readonly id: string;
  /** `- name (owner)`: the whole row at the names-only level. */
  readonly head: string;
  /** Whitespace-collapsed, control characters removed; `No description.` when blank. */
  readonly description: string;
}

/** What the catalog contributes to the directory. */
export interface RowSelection {
  /** Listable rows, sorted by name, then id, by code units. */
  readonly rows: readonly DirectoryRow[];
  /** Deferred native tools whose name or owner cannot be listed safely on one row: counted as omitted. */
  readonly unlisted: number;
  /** True when any MCP or client entry exists (their names are never listed). */
  readonly hasUntrusted: boolean;
  /** True when anything is deferred at all: an untrusted entry, or a native entry whose name is not visible. */
  readonly hasDeferred: boolean;
}

const UNLISTABLE_CHARACTER = /[\s\p{Cc}\p{Cf}\p{Cs}]/u;
const CONTROL_CHARACTERS = /\p{Cc}/gu;

/**
 * Picks the rows: `native` entries only, minus names visible to the model, minus names that occur more than
 * once in the whole catalog (any source). MCP and client entries only set `hasUntrusted`.
 */
export function selectRows(
  entries: readonly CatalogEntry[],
  visibleNames: ReadonlySet<string>,
): RowSelection {
  const nameCounts = new Map<string, number>();
  for (const entry of entries) nameCounts.set(entry.name, (nameCounts.get(entry.name) ?? 0) + 1);
  const rows: DirectoryRow[] = [];
  let unlisted = 0;
  let hasUntrusted = false;
  let hasDeferred = false;
  for (const entry of entries) {
    if (entry.source !== "native") {
      hasUntrusted = true;
      hasDeferred = true;
      continue;
    }
    if (visibleNames.has(entry.name)) continue;
    hasDeferred = true;
    if (nameCounts.get(entry.name) !== 1) continue;
    if (!listable(entry.name) || !listable(entry.owner)) {
      unlisted += 1;
      continue;
    }
    rows.push({
      name: entry.name,
      id: entry.id,
      head: `- ${entry.name} (${entry.owner})`,
      description: oneLine(entry.description),
    });
  }
  rows.sort((left, right) => compareCodeUnits(left.name, right.name) || compareCodeUnits(left.id, right.id));
  return { rows, unlisted, hasUntrusted, hasDeferred };
}

/** A description on one line: control characters and whitespace runs become single spaces. */
function oneLine(description: unknown): string {
  if (typeof description !== "string") return NO_DESCRIPTION;
  const text = collapseWhitespace(description.replace(CONTROL_CHARACTERS, " "));
  return text.length === 0 ? NO_DESCRIPTION : text;
}

/** A name or owner that can be listed and called as written: short, no whitespace or invisible characters. */
function listable(text: unknown): boolean {
  return (
    typeof text === "string" &&
    text.length > 0 &&
    text.length <= MAX_LISTED_NAME_CHARS &&
    !UNLISTABLE_CHARACTER.test(text)
  );
}
