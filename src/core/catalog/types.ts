/** A JSON Schema as declared by a tool author; never trusted to be well-formed. */
export type JsonSchema = Record<string, unknown> | boolean;

/** One block of a tool result: text, or a base64 image. */
export type ToolContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

/** What a tool's `execute` resolves to (the library contract). */
export interface ToolResult {
  content: ToolContent[];
  details?: unknown;
  terminate?: boolean;
  isError?: boolean;
}

/** Per-call context handed to `execute`. */
export interface ToolCallContext {
  toolCallId?: string;
  signal?: AbortSignal;
}

/** Where a tool comes from; default `{ kind: "core" }`. */
export interface ToolOrigin {
  kind: "core" | "plugin" | "mcp" | "client";
  /** Plugin id, MCP server name or a client tool's namespace; `"core"` for core tools, default `"client"` for client tools. */
  owner?: string;
}

/** A tool as handed to toolsift by its host (the library contract). */
export interface ToolDefinition {
  name: string;
  label?: string;
  description?: string;
  /** Input schema. */
  parameters?: JsonSchema;
  /** Honoured for trusted (`native`) tools only. */
  outputSchema?: JsonSchema;
  origin?: ToolOrigin;
  /** `"direct-only"` keeps the tool out of the catalog and always visible. Default `"catalog"`. */
  catalogMode?: "catalog" | "direct-only";
  /** `"sequential"` tools run exclusively within their run. Default `"parallel"`. */
  executionMode?: "parallel" | "sequential";
  /** `"network"` marks a native tool whose results come from outside and are wrapped as untrusted. */
  resultSource?: "local" | "network";
  /**
   * Extension: `true` keeps the cataloged tool in the model's tool list (operator pinning). Honoured for
   * native and MCP tools (for MCP tools the MCP tool source sets it from `mcp.servers.<id>.alwaysVisible`,
   * an operator trust decision); ignored for client tools. Default `false`.
   */
  alwaysVisible?: boolean;
  /**
   * Extension: `true` keeps a client tool behind Tool Search in every mode (in directory mode client tools are
   * otherwise declared directly): the client asked for deferred loading. Ignored for other tools. Default `false`.
   */
  deferLoading?: boolean;
  execute(args: unknown, context: ToolCallContext): Promise<ToolResult>;
}

/** Trust class of an entry: `native` (core and plugin tools) is trusted; `mcp` and `client` are not. */
export type EntrySource = "native" | "mcp" | "client";

/** One tool in a catalog snapshot. Field values are copied once, safely, from the definition. */
export interface CatalogEntry {
  /** `<source>:<owner>:<name>` */
  readonly id: string;
  readonly source: EntrySource;
  readonly owner: string;
  readonly name: string;
  /** `""` when missing. */
  readonly label: string;
  /** `""` when missing. */
  readonly description: string;
  /** The declared input schema, as received. Opaque (never walked) unless `source === "native"`. */
  readonly parameters: unknown;
  /** The declared output schema; kept for `native` entries only. */
  readonly outputSchema: unknown;
  /** For MCP entries: the server and the tool name on that server. */
  readonly mcp?: { readonly server: string; readonly tool: string };
  /** True for tools whose origin kind is `core` (the coding primitives can only come from there). */
  readonly fromCore: boolean;
  readonly executionMode: "parallel" | "sequential";
  readonly resultSource: "local" | "network";
  /** The definition declared `alwaysVisible: true` (never for client entries): it stays in the tool list. */
  readonly pinned: boolean;
  /** A client entry whose definition declared `deferLoading: true`: never declared directly. */
  readonly deferred: boolean;
  /** The definition the entry was made from; `execute` is called on it. */
  readonly tool: ToolDefinition;
}

/** A tool listed by an upstream MCP server, as toolsift hands it to the catalog. */
export interface McpToolDefinition extends ToolDefinition {
  origin: { kind: "mcp"; owner: string };
  /** The provider-facing name where the tool is declared directly: `<server>__<tool>`. */
  directName: string;
  /** The safe server name and the tool's name on that server. */
  mcp: { server: string; tool: string };
}
