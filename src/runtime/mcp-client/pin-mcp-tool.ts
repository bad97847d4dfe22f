import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ToolResult } from "../../core/catalog/index.js";
import { messageOf } from "../../shared/errors/index.js";
import { cutText } from "../../shared/text/index.js";
import { MAX_PIN_ERROR_CHARS } from "./limits.js";
import type { McpToolDefinition } from "./types.js";

/** A pinned tool's checked schema, or why it cannot be pinned. */
export type PinCheck = { ok: true; validate: ValidateFunction } | { ok: false; reason: string };

const AJV_OPTIONS = { strict: false, allErrors: true, logger: false } as const;

/**
 * Checks the input schema of an MCP tool the operator pinned (`mcp.servers.<id>.alwaysVisible`) the way a
 * native tool's is checked: it must be an object schema (`type: "object"` or no `type`) that ajv compiles.
 * Pinning is an operator trust decision: the schema is then read, compiled and declared to the model.
 */
export function checkPinnedSchema(schema: unknown): PinCheck {
  if (schema === undefined) return checkPinnedSchema({ type: "object" });
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return { ok: false, reason: "its input schema is not a JSON object" };
  }
  const type = (schema as Record<string, unknown>).type;
  if (type !== undefined && type !== "object") {
    return { ok: false, reason: 'its input schema does not have type "object"' };
  }
  try {
    const declared = (schema as Record<string, unknown>).$schema;
    const ajv =
      typeof declared === "string" && declared.includes("2020-12")
        ? new Ajv2020(AJV_OPTIONS)
        : new Ajv(AJV_OPTIONS);
    const copy = structuredClone(schema) as Record<string, unknown>;
    if (!(ajv instanceof Ajv2020)) delete copy.$schema;
    return { ok: true, validate: ajv.compile(copy) };
  } catch (error) {
    const message = messageOf(error);
    return {
      ok: false,
      reason: `its input schema does not compile: ${cutText(message, MAX_PIN_ERROR_CHARS)}`,
    };
  }
}

/**
 * The pinned form of an MCP tool definition: `alwaysVisible: true` (the catalog keeps it in the model's tool
 * list, declared as `<server>__<tool>` with its schema), and arguments validated against the schema before
 * anything is sent: invalid arguments come back as an error result naming the problems, and the server is
 * never called.
 */
export function pinMcpTool(definition: McpToolDefinition, validate: ValidateFunction): McpToolDefinition {
  const id = `mcp:${definition.mcp.server}:${definition.mcp.tool}`;
  const execute = definition.execute;
  return {
    ...definition,
    alwaysVisible: true,
    execute: async (args, context): Promise<ToolResult> => {
      let valid: boolean;
      try {
        valid = validate(args) === true;
      } catch {
        valid = false;
      }
      if (valid) return execute(args, context);
      const problems = (validate.errors ?? [])
        .map((error) => `${error.instancePath || "arguments"} ${error.message ?? "is invalid"}`)
        .join("; ");
      return {
        content: [
          {
            type: "text",
            text: cutText(
              `Invalid arguments for tool "${id}": ${problems || "they do not match its input schema"}. ` +
                "Nothing was sent to the server; fix the arguments and call again.",
              MAX_PIN_ERROR_CHARS,
            ),
          },
        ],
        isError: true,
      };
    },
  };
}
