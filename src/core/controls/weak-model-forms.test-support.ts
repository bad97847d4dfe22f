import type { ToolDefinition, ToolResult } from "../catalog/index.js";
import { createTestRuntime, echoTool } from "./controls.test-support.js";
import { createControlTools } from "./create-control-tools.js";

/** Search limits for local models (config.md, "Local models"): 5 by default, at most 10. */
export const LOCAL_MODEL_LIMITS = { searchDefaultLimit: 5, maxSearchLimit: 10 } as const;

/** The intended arguments of every `tool_call` form below. */
const EMAIL = { to: "a@example.com", subject: "hi" };

/** A catalog whose targets have loose schemas (extra keys pass validation), as many tools do. */
const weakModelTools: ToolDefinition[] = [
  echoTool("send_email", {
    description: "Send an email message.",
    parameters: { type: "object", properties: { to: { type: "string" }, subject: { type: "string" } } },
  }),
  echoTool("list_files", {
    description: "List the files of a directory.",
    parameters: { type: "object", properties: { path: { type: "string" } } },
  }),
];

/** One way a weak or local model writes a control call, and what it means. */
export type WeakModelForm =
  | { label: string; control: "search"; request: unknown; searches: Array<{ query: string; limit: number }> }
  | { label: string; control: "call"; request: unknown; args: Record<string, unknown> };

/** Call forms seen from weak and local models, each with the one reading its intent allows. */
export const WEAK_MODEL_FORMS: readonly WeakModelForm[] = [
  {
    label: "search: canonical",
    control: "search",
    request: { query: "send email" },
    searches: [q("send email", 5)],
  },
  {
    label: "search: limit as integer",
    control: "search",
    request: { query: "send email", limit: 3 },
    searches: [q("send email", 3)],
  },
  {
    label: "search: limit as integer string",
    control: "search",
    request: { query: "send email", limit: "3" },
    searches: [q("send email", 3)],
  },
  {
    label: "search: limit string over the cap",
    control: "search",
    request: { query: "send email", limit: "50" },
    searches: [q("send email", 10)],
  },
  {
    label: "search: null limit",
    control: "search",
    request: { query: "send email", limit: null },
    searches: [q("send email", 5)],
  },
  {
    label: "search: batch of objects",
    control: "search",
    request: { queries: [{ query: "send email" }, { query: "list files" }] },
    searches: [q("send email", 5), q("list files", 5)],
  },
  {
    label: "search: batch of strings",
    control: "search",
    request: { queries: ["send email", "list files"] },
    searches: [q("send email", 5), q("list files", 5)],
  },
  {
    label: "search: batch mixing strings and objects",
    control: "search",
    request: { queries: ["send email", { query: "list files", limit: 2 }] },
    searches: [q("send email", 5), q("list files", 2)],
  },
  {
    label: "search: batch item limit as string",
    control: "search",
    request: { queries: [{ query: "send email", limit: "2" }] },
    searches: [q("send email", 2)],
  },
  {
    label: "call: canonical",
    control: "call",
    request: { id: "native:core:send_email", args: EMAIL },
    args: EMAIL,
  },
  { label: "call: name as id", control: "call", request: { id: "send_email", args: EMAIL }, args: EMAIL },
  { label: "call: flattened", control: "call", request: { id: "send_email", ...EMAIL }, args: EMAIL },
  {
    label: "call: dotted keys",
    control: "call",
    request: { id: "send_email", "args.to": EMAIL.to, "args.subject": EMAIL.subject },
    args: EMAIL,
  },
  { label: "call: input", control: "call", request: { id: "send_email", input: EMAIL }, args: EMAIL },
  {
    label: "call: name selector",
    control: "call",
    request: { name: "send_email", args: EMAIL },
    args: EMAIL,
  },
  {
    label: "call: toolId selector",
    control: "call",
    request: { toolId: "send_email", args: EMAIL },
    args: EMAIL,
  },
  {
    label: "call: double-wrapped in args",
    control: "call",
    request: { args: { id: "send_email", args: EMAIL } },
    args: EMAIL,
  },
  { label: "call: arguments", control: "call", request: { id: "send_email", arguments: EMAIL }, args: EMAIL },
  {
    label: "call: parameters",
    control: "call",
    request: { id: "send_email", parameters: EMAIL },
    args: EMAIL,
  },
  {
    label: "call: name + arguments (function-call shape)",
    control: "call",
    request: { name: "send_email", arguments: EMAIL },
    args: EMAIL,
  },
  {
    label: "call: args as JSON text",
    control: "call",
    request: { id: "send_email", args: JSON.stringify(EMAIL) },
    args: EMAIL,
  },
  {
    label: "call: arguments as JSON text",
    control: "call",
    request: { id: "send_email", arguments: JSON.stringify(EMAIL) },
    args: EMAIL,
  },
  {
    label: "call: double-wrapped in arguments",
    control: "call",
    request: { arguments: { id: "send_email", args: EMAIL } },
    args: EMAIL,
  },
];

function q(query: string, limit: number): { query: string; limit: number } {
  return { query, limit };
}

/** Runs one form through the real controls (local-model limits) and says whether it did what it meant. */
export async function formGetsThrough(form: WeakModelForm): Promise<boolean> {
  const runtime = createTestRuntime(weakModelTools, LOCAL_MODEL_LIMITS);
  const [search, , call] = createControlTools(runtime);
  if (!search || !call) throw new Error("controls expected");
  const result: ToolResult = await (form.control === "search" ? search : call).execute(form.request, {});
  if (result.isError) return false;
  if (form.control === "search") return JSON.stringify(runtime.searches) === JSON.stringify(form.searches);
  const executed = runtime.executions;
  return (
    executed.length === 1 &&
    executed[0]?.entry.name === "send_email" &&
    JSON.stringify(sorted(executed[0].args)) === JSON.stringify(sorted(form.args))
  );
}

function sorted(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
}
