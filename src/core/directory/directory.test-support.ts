import { type CatalogEntry, type ToolOrigin, toCatalogEntry } from "../catalog/index.js";

const execute = async () => ({ content: [] });

/** A catalog entry made the way the catalog makes it, from a tool definition. */
export function entry(
  name: string,
  options: { description?: string; origin?: ToolOrigin } = {},
): CatalogEntry {
  const made = toCatalogEntry({
    name,
    execute,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.origin === undefined ? {} : { origin: options.origin }),
  });
  if (!made) throw new Error(`test entry ${name} was refused`);
  return made;
}

/** A plugin-owned native entry. */
export function pluginEntry(owner: string, name: string, description?: string): CatalogEntry {
  return entry(name, {
    origin: { kind: "plugin", owner },
    ...(description === undefined ? {} : { description }),
  });
}

/** Entries ordered by id, as a snapshot holds them. */
export function byId(entries: readonly CatalogEntry[]): CatalogEntry[] {
  return [...entries].sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
}

/** `count` native plugin entries `tool_00000`… with descriptions of `descriptionLength` characters. */
export function manyEntries(count: number, descriptionLength: number): CatalogEntry[] {
  const width = String(count).length;
  return Array.from({ length: count }, (_, index) =>
    pluginEntry("bulk", `tool_${String(index).padStart(width, "0")}`, "d".repeat(descriptionLength)),
  );
}

/** The row lines of a directory text. */
export function rowLines(text: string): string[] {
  return text.split("\n").filter((line) => line.startsWith("- "));
}

/** The N of `N additional tools omitted.`, or 0 when the line is absent. */
export function omittedCount(text: string): number {
  const match = /^(\d+) additional tools omitted\.$/mu.exec(text);
  return match ? Number(match[1]) : 0;
}
