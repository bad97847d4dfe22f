import type { ConversationItem } from "../../runtime/providers/index.js";

type AnsweredCall = { name: string; args: unknown; output: string };

/**
 * The scripted model under Code Mode (`exec` declared, no `tool_search`): one cell that, for each target,
 * searches, describes the best hit, calls it with arguments built from its schema's required properties,
 * and returns the result texts; then `wait` while the cell is still running; then an answer with the value.
 */
export function planCodeMode(
  targets: readonly string[],
  answered: readonly AnsweredCall[],
): ConversationItem[] {
  const last = [...answered].reverse().find((call) => call.name === "exec" || call.name === "wait");
  if (last === undefined) return [call("exec", { code: cellFor(targets) }, answered.length)];
  const outcome = parseOutcome(last.output);
  if (outcome?.status === "running" && typeof outcome.runId === "string") {
    return [call("wait", { runId: outcome.runId }, answered.length)];
  }
  if (outcome?.status === "completed") return [say(`Done. ${String(outcome.value)}`)];
  return [say(`mock: exec failed: ${last.output}`)];
}

/** The cell's source: plain JavaScript for the sandbox, with the targets embedded as JSON. */
export function cellFor(targets: readonly string[]): string {
  return `const targets = ${JSON.stringify(targets)};
const texts = [];
for (const target of targets) {
  const hits = await tools.search(target, { limit: 1 });
  if (hits.length === 0) { texts.push("no tool for " + target); continue; }
  const spec = await tools.describe(hits[0].id);
  const schema = spec.parameters || {};
  const args = {};
  for (const key of schema.required || []) {
    const type = ((schema.properties || {})[key] || {}).type;
    args[key] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : "qa";
  }
  const result = await tools.call(spec.id, args);
  texts.push(result.result.content.filter((block) => block.type === "text").map((block) => block.text).join(" "));
}
return texts.join(" ");`;
}

function parseOutcome(text: string): { status?: unknown; value?: unknown; runId?: unknown } | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as { status?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

function call(name: string, args: unknown, alreadyAnswered: number): ConversationItem {
  return {
    type: "function_call",
    callId: `call_${alreadyAnswered + 1}`,
    name,
    arguments: JSON.stringify(args),
  };
}

function say(text: string): ConversationItem {
  return { type: "message", role: "assistant", text };
}
