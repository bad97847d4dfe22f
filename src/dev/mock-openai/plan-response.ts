import type { ConversationItem, ProviderTool } from "../../runtime/providers/index.js";
import { cutText } from "../../shared/text/index.js";
import { MAX_ECHO_CHARS } from "./limits.js";
import { planCodeMode } from "./plan-code-mode.js";
import {
  type FoundGroup,
  type FoundTool,
  isCallEnvelope,
  readCallOutput,
  readDescribeOutput,
  readDirectOutput,
  readSearchOutput,
} from "./read-outputs.js";
import { argumentsFromSchema } from "./schema-args.js";
import { readCommand, withCommand } from "./shell-command.js";
import { argumentsFromSignature } from "./signature-args.js";
import { baseToolName, type DeclaredTools, declaredTools, isMcpClientName } from "./tool-names.js";

/** What the scripted model sees: the last user text, the items after it, and the declared tools. */
export type PlannerInput = {
  userText: string;
  /** The conversation items after the last user message (this turn's calls and their outputs). */
  items: readonly ConversationItem[];
  tools: readonly ProviderTool[];
};

type AnsweredCall = { name: string; args: unknown; output: string };
type Call = { name: string; args: unknown };

const TARGET = /\btarget=([^\s"'`,;]+)/u;
const SECOND_TARGET = /\band=([^\s"'`,;]+)/u;

/**
 * The scripted model: decides the next response from the conversation alone, deterministically. For
 * `target=<tool> [and=<tool2>]` it calls declared targets directly; otherwise it searches once with
 * `tool_search` (a batch for two targets), describes a best candidate whose input is `"unknown"`, calls each
 * best candidate through `tool_call` with arguments built from its signature or schema, and finally answers
 * with the outputs' text. A target already answered in this turn is answered with its output, however it was
 * reached (a stateless client resends the whole turn). `cmd=<command>` fills a shell tool's command. Controls
 * and targets are found under an MCP client's `mcp__<server>__` prefix or a namespace too. Under Code Mode
 * (`exec` declared, no `tool_search`) it writes one cell that does the same (plan-code-mode.ts). Errors,
 * unreachable targets and text without a target end in an assistant message, so a conversation can never
 * loop. See DESIGN.md for every rule.
 */
export function planResponse(input: PlannerInput): ConversationItem[] {
  const { before, command } = readCommand(input.userText);
  const targets = parseTargets(before);
  if (targets.length === 0) return [say(`mock: ${cutText(input.userText.trim(), MAX_ECHO_CHARS)}`)];
  const declared = declaredTools(input.tools);
  const answered = answeredCalls(input.items);
  const plan: Plan = { declared, answered, ...(command === undefined ? {} : { command }) };

  const resent = answerFromHistory(targets, answered);
  if (resent !== undefined) return [resent];
  if (targets.every((target) => declared.has(target))) return planDirect(targets, plan);
  if (!declared.has("tool_search") && declared.has("exec")) return planCodeMode(targets, answered);
  if (!declared.has("tool_search")) {
    const missing = targets.filter((target) => !declared.has(target));
    return [
      say(`mock: cannot reach ${missing.join(", ")}: it is not declared and tool_search is not available.`),
    ];
  }
  return planSearch(targets, plan);
}

/** What every planning step reads: the declared tools, this turn's answered calls, the prompt's command. */
type Plan = { declared: DeclaredTools; answered: readonly AnsweredCall[]; command?: string };

/**
 * The answer when every target already has an output in this turn: a call named after it (however it was
 * declared), or a `tool_call` whose `id` is the target or ends in `:<target>`. `undefined` when one has none.
 */
function answerFromHistory(
  targets: readonly string[],
  answered: readonly AnsweredCall[],
): ConversationItem | undefined {
  const texts: string[] = [];
  for (const target of targets) {
    const direct = answered.find((call) => baseToolName(call.name) === target);
    if (direct !== undefined) {
      const reading = readDirectOutput(direct.output);
      if (!reading.ok) return failed(target, reading.text);
      texts.push(reading.text);
      continue;
    }
    const viaControl = answered.find(
      (call) => baseToolName(call.name) === "tool_call" && namesTarget(idOf(call.args), target),
    );
    if (viaControl === undefined) return undefined;
    const reading = readControlCallOutput(viaControl);
    if (!reading.ok) return failed("tool_call", reading.text);
    texts.push(reading.text);
  }
  return answerWith(texts);
}

function namesTarget(id: unknown, target: string): boolean {
  return typeof id === "string" && (id === target || id.endsWith(`:${target}`));
}

/**
 * A `tool_call` output: toolsift's envelope. When it is not the envelope and the call went through an MCP
 * client (`mcp__<server>__tool_call`: the upstream result as the client relays it) or to a client tool (an id
 * `client:…`: the client's own output, replayed by a gateway), it is read like a direct tool's output.
 */
function readControlCallOutput(call: AnsweredCall) {
  const id = idOf(call.args);
  const relayed = isMcpClientName(call.name) || (typeof id === "string" && id.startsWith("client:"));
  return relayed && !isCallEnvelope(call.output)
    ? readDirectOutput(call.output)
    : readCallOutput(call.output);
}

function planDirect(targets: readonly string[], plan: Plan): ConversationItem[] {
  const texts: string[] = [];
  const calls: Call[] = [];
  for (const target of targets) {
    const tool = plan.declared.get(target);
    const done = plan.answered.find((call) => call.name === tool?.name);
    if (done === undefined) {
      const args = argumentsFromSchema(tool?.parameters);
      calls.push({
        name: tool?.name ?? target,
        args: plan.command === undefined ? args : withCommand(args, plan.command, tool?.parameters),
      });
      continue;
    }
    const reading = readDirectOutput(done.output);
    if (!reading.ok) return [failed(target, reading.text)];
    texts.push(reading.text);
  }
  return calls.length > 0 ? toFunctionCalls(calls, plan.answered.length) : [answerWith(texts)];
}

function planSearch(targets: readonly string[], plan: Plan): ConversationItem[] {
  const { declared, answered } = plan;
  const control = (name: string) => declared.nameOf(name) ?? name;
  const answeredControl = (name: string) => answered.filter((call) => call.name === control(name));
  const search = answeredControl("tool_search")[0];
  if (search === undefined)
    return toFunctionCalls([{ name: control("tool_search"), args: searchArgs(targets) }], 0);
  const found = readSearchOutput(search.output);
  if (!found.ok) return [failed("tool_search", found.text)];
  if (!declared.has("tool_call"))
    return [say(`mock: cannot call ${targets.join(", ")}: tool_call is not declared.`)];

  const best = targets.map((target, index) => bestCandidate(found.groups, target, index));
  const unreachable = targets.filter((_target, index) => best[index] === undefined);
  if (unreachable.length > 0) return [say(`mock: tool_search found no tool for ${unreachable.join(", ")}.`)];

  const texts: string[] = [];
  const calls: Call[] = [];
  for (const candidate of best as FoundTool[]) {
    const done = answeredControl("tool_call").find((call) => idOf(call.args) === candidate.id);
    if (done !== undefined) {
      const reading = readControlCallOutput(done);
      if (!reading.ok) return [failed("tool_call", reading.text)];
      texts.push(reading.text);
      continue;
    }
    let args: Record<string, unknown>;
    let parameters: unknown;
    if (candidate.input === "unknown" && declared.has("tool_describe")) {
      const described = answeredControl("tool_describe").find((call) => idOf(call.args) === candidate.id);
      if (described === undefined) {
        calls.push({ name: control("tool_describe"), args: { id: candidate.id } });
        continue;
      }
      const reading = readDescribeOutput(described.output);
      if (!reading.ok) return [failed("tool_describe", reading.text)];
      parameters = reading.parameters;
      args = argumentsFromSchema(parameters);
    } else {
      args = argumentsFromSignature(candidate.input);
    }
    if (plan.command !== undefined) args = withCommand(args, plan.command, parameters);
    calls.push({ name: control("tool_call"), args: { id: candidate.id, args } });
  }
  return calls.length > 0 ? toFunctionCalls(calls, answered.length) : [answerWith(texts)];
}

/** `target=` then `and=` from the user text (without trailing sentence punctuation); none without `target=`. */
function parseTargets(text: string): string[] {
  const first = targetName(TARGET.exec(text)?.[1]);
  if (first === undefined) return [];
  const second = targetName(SECOND_TARGET.exec(text)?.[1]);
  return second === undefined || second === first ? [first] : [first, second];
}

function targetName(raw: string | undefined): string | undefined {
  const name = raw?.replace(/[.!?)\]]+$/u, "");
  return name === undefined || name.length === 0 ? undefined : name;
}

function searchArgs(targets: readonly string[]): unknown {
  if (targets.length === 1) return { query: targets[0], limit: 1 };
  return { queries: targets.map((target) => ({ query: target, limit: 1 })) };
}

/** The first candidate of the group answering `target`: by query, else by position, else the only group. */
function bestCandidate(groups: readonly FoundGroup[], target: string, index: number): FoundTool | undefined {
  const group =
    groups.find((candidate) => candidate.query === target) ??
    groups[index] ??
    (groups.length === 1 ? groups[0] : undefined);
  return group?.candidates[0];
}

/** This turn's function calls that have an output, in call order. */
function answeredCalls(items: readonly ConversationItem[]): AnsweredCall[] {
  const outputs = new Map<string, string>();
  for (const item of items) if (item.type === "function_call_output") outputs.set(item.callId, item.output);
  const calls: AnsweredCall[] = [];
  for (const item of items) {
    if (item.type !== "function_call") continue;
    const output = outputs.get(item.callId);
    if (output !== undefined) calls.push({ name: item.name, args: parseArguments(item.arguments), output });
  }
  return calls;
}

function toFunctionCalls(calls: readonly Call[], alreadyAnswered: number): ConversationItem[] {
  return calls.map((call, index) => ({
    type: "function_call",
    callId: `call_${alreadyAnswered + index + 1}`,
    name: call.name,
    arguments: JSON.stringify(call.args),
  }));
}

function answerWith(texts: readonly string[]): ConversationItem {
  return say(`Done. ${texts.join(" ")}`);
}

function failed(name: string, text: string): ConversationItem {
  return say(`mock: ${name} failed: ${text}`);
}

function say(text: string): ConversationItem {
  return { type: "message", role: "assistant", text };
}

function idOf(args: unknown): unknown {
  return typeof args === "object" && args !== null ? (args as { id?: unknown }).id : undefined;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
