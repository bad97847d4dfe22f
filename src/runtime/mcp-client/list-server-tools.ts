import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import * as z from "zod";
import { cutText } from "../../shared/text/index.js";
import { MAX_TOOL_LIST_PAGES, MAX_TOOL_NAME_CHARS, MAX_TOOLS_PER_SERVER } from "./limits.js";

/** One tool as read from `tools/list`: only what toolsift needs, the input schema as received. */
export interface ListedTool {
  name: string;
  description?: string;
  title?: string;
  /** As received: never walked, never copied. */
  inputSchema: unknown;
}

/** What a full listing found, and what it had to leave out (for the log). */
export interface ServerToolList {
  tools: ListedTool[];
  /** One line per problem: unusable names, duplicates, cut lists. */
  problems: string[];
}

/**
 * The page shape, loosely: each tool is read on its own below, so one malformed tool is left out instead
 * of failing the whole list (the SDK's strict schema would reject the page).
 */
const LOOSE_PAGE = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/**
 * Reads every page of `tools/list` (following `nextCursor` to the end, at most MAX_TOOL_LIST_PAGES pages
 * and MAX_TOOLS_PER_SERVER tools, stopping on a repeated cursor). Tools without a usable name (not a
 * string, empty, longer than MAX_TOOL_NAME_CHARS, or holding control characters) and repeated names are
 * left out and reported in `problems`.
 */
export async function listServerTools(
  client: Client,
  options: { timeoutMs: number },
): Promise<ServerToolList> {
  const tools: ListedTool[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  const cursors = new Set<string>();
  let unusable = 0;
  let duplicates = 0;
  let cursor: string | undefined;
  for (let page = 0; ; page += 1) {
    if (page >= MAX_TOOL_LIST_PAGES) {
      problems.push(`stopped reading tools/list after ${MAX_TOOL_LIST_PAGES} pages`);
      break;
    }
    const result = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      LOOSE_PAGE,
      { timeout: options.timeoutMs },
    );
    for (const raw of result.tools) {
      const tool = readListedTool(raw);
      if (!tool) unusable += 1;
      else if (names.has(tool.name)) duplicates += 1;
      else if (tools.length < MAX_TOOLS_PER_SERVER) {
        names.add(tool.name);
        tools.push(tool);
      }
    }
    cursor = result.nextCursor;
    if (cursor === undefined || tools.length >= MAX_TOOLS_PER_SERVER) break;
    if (cursors.has(cursor)) {
      problems.push(`tools/list repeated the cursor ${JSON.stringify(cutText(cursor, 40))}; stopped there`);
      break;
    }
    cursors.add(cursor);
  }
  if (unusable > 0)
    problems.push(
      `left out ${unusable} tool(s) without a usable name (a string of 1 to ${MAX_TOOL_NAME_CHARS} characters, no control characters)`,
    );
  if (duplicates > 0) problems.push(`left out ${duplicates} tool(s) whose name was already listed`);
  if (tools.length >= MAX_TOOLS_PER_SERVER && cursor !== undefined)
    problems.push(`kept the first ${MAX_TOOLS_PER_SERVER} tools; the rest are left out`);
  return { tools, problems };
}

/** One tool of a page, or undefined when it has no usable name. Never throws, whatever the value is. */
export function readListedTool(raw: unknown): ListedTool | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const record = raw as Record<string, unknown>;
  const name = record.name;
  if (typeof name !== "string" || name.length === 0 || name.length > MAX_TOOL_NAME_CHARS) return undefined;
  if (CONTROL_CHARACTERS.test(name)) return undefined;
  const tool: ListedTool = { name, inputSchema: record.inputSchema };
  if (typeof record.description === "string") tool.description = record.description;
  const title = typeof record.title === "string" ? record.title : readAnnotationTitle(record.annotations);
  if (title !== undefined) tool.title = title;
  return tool;
}

function readAnnotationTitle(annotations: unknown): string | undefined {
  if (typeof annotations !== "object" || annotations === null) return undefined;
  const title = (annotations as Record<string, unknown>).title;
  return typeof title === "string" ? title : undefined;
}
