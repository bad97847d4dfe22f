import type { ToolDefinition } from "../../core/catalog/index.js";
import type { ClientToolDeclaration } from "./types.js";

/** A client tool call the run hands back to the client. */
export interface ClientHandoff {
  callId: string;
  name: string;
  arguments: string;
}

/**
 * Client function tools as tool definitions whose execution hands the call back: toolsift never runs a
 * client tool. The call is recorded under the model's call id and the run ends (`terminate`), so the
 * client answers with `function_call_output` for that id in its next request. A tool declared with
 * `deferLoading` is marked so Tool Search keeps it in the catalog whatever its mode; `owner` names its
 * catalog owner (a Responses namespace), still a client tool.
 */
export function clientToolDefinitions(
  tools: readonly ClientToolDeclaration[],
  handoffs: Map<string, ClientHandoff>,
): ToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: (tool.parameters ?? { type: "object", properties: {} }) as ToolDefinition["parameters"] &
      object,
    origin: { kind: "client", owner: tool.owner ?? "client" },
    ...(tool.deferLoading === true ? { deferLoading: true } : {}),
    execute: async (args, context) => {
      const callId = context.toolCallId ?? `call_${handoffs.size + 1}`;
      handoffs.set(callId, { callId, name: tool.name, arguments: JSON.stringify(args ?? {}) });
      return {
        content: [{ type: "text", text: `Handed to the client: ${tool.name}.` }],
        terminate: true,
      };
    },
  }));
}
