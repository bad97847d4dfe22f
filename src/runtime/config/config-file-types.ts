import type * as z from "zod";
import type {
  agentEntrySchema,
  agentSettingsSchema,
  configFileSchema,
  mcpServerSchema,
  toolPolicySchema,
} from "./config-schema.js";

/**
 * A schema's type with `| undefined` dropped from its optional keys, at every depth: zod's `.optional()` adds it,
 * and under `exactOptionalPropertyTypes` a key that may be absent is not one that may hold `undefined`.
 */
type Inferred<Schema extends z.ZodType> = WithoutUndefined<z.infer<Schema>>;
type WithoutUndefined<T> = T extends object
  ? { [K in keyof T]: WithoutUndefined<Exclude<T[K], undefined>> }
  : T;

/** The whole config file (`toolsift.json`, JSON5), after `env:NAME` values are resolved. */
export type ToolsiftConfig = Inferred<typeof configFileSchema>;

/** Tool policy keys, global (`tools`), per agent (`agents.list[].tools`) and per sandbox. */
export type ToolPolicySettings = Inferred<typeof toolPolicySchema>;

/** Settings an agent inherits from `agents.defaults` and may override in `agents.list[]`. */
export type AgentSettings = Inferred<typeof agentSettingsSchema>;

/** One entry of `agents.list`. */
export type AgentEntry = Inferred<typeof agentEntrySchema>;

/** An MCP server: stdio (`command`) or Streamable HTTP (`url`). */
export type McpServerSettings = Inferred<typeof mcpServerSchema>;
