import type { ToolCallContext, ToolDefinition } from "../../core/catalog/index.js";
import type { BeforeToolCallResult } from "../../core/execution/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { safeRead } from "../../shared/schema/index.js";
import { boundMessage } from "./plugin-message.js";
import type {
  BeforePromptEvent,
  BeforePromptResult,
  BeforeToolCallEvent,
  PluginApi,
  PluginHook,
  PluginLogEntry,
  PluginManifest,
} from "./types.js";

/** What one plugin's `register` produced, and the switch that ends registration. */
export interface PluginRegistration {
  readonly api: PluginApi;
  readonly tools: ToolDefinition[];
  readonly beforeToolCall: PluginHook<BeforeToolCallEvent, BeforeToolCallResult>[];
  readonly beforePrompt: PluginHook<BeforePromptEvent, BeforePromptResult>[];
  /** Ends registration: later `registerTool`/`on` calls are ignored with a warning (never thrown). */
  close(): void;
}

const OPTIONAL_FIELDS = [
  "label",
  "description",
  "parameters",
  "outputSchema",
  "catalogMode",
  "executionMode",
  "resultSource",
] as const;

type BeforeToolCallHandler = PluginHook<BeforeToolCallEvent, BeforeToolCallResult>["handler"];
type BeforePromptHandler = PluginHook<BeforePromptEvent, BeforePromptResult>["handler"];

function refuse(message: string): never {
  throw new ToolsiftError("INVALID_REQUEST", message);
}

/** A copy of the plugin's definition with the origin forced to the plugin and `execute` bound to it. */
function copyDefinition(
  manifest: PluginManifest,
  definition: unknown,
  registered: ReadonlySet<string>,
): ToolDefinition {
  if (typeof definition !== "object" || definition === null) {
    refuse(
      `Plugin "${manifest.id}": registerTool needs a tool definition object ({ name, description, parameters, execute }).`,
    );
  }
  const name = safeRead(definition, "name");
  if (typeof name !== "string" || name.length === 0) {
    refuse(`Plugin "${manifest.id}": registerTool needs a definition with a string "name".`);
  }
  if (!manifest.tools.includes(name)) {
    refuse(
      `Plugin "${manifest.id}" tried to register the tool "${name}", which its toolsift.plugin.json does not declare; add "${name}" to "tools" in the manifest.`,
    );
  }
  if (registered.has(name)) {
    throw new ToolsiftError(
      "NAME_CONFLICT",
      `Plugin "${manifest.id}" registered the tool "${name}" twice; register each tool once.`,
    );
  }
  const execute = safeRead(definition, "execute");
  if (typeof execute !== "function") {
    refuse(`Plugin "${manifest.id}": the tool "${name}" has no execute function.`);
  }
  const copy: ToolDefinition = {
    name,
    origin: { kind: "plugin", owner: manifest.id },
    execute: (args: unknown, context: ToolCallContext) => Reflect.apply(execute, definition, [args, context]),
  };
  for (const field of OPTIONAL_FIELDS) {
    const value = safeRead(definition, field);
    if (value !== undefined) (copy as unknown as Record<string, unknown>)[field] = value;
  }
  return copy;
}

/**
 * The `api` handed to one plugin's `register`: `registerTool` accepts only names the manifest declares,
 * once each (copies the definition, forcing `origin: { kind: "plugin", owner: <id> }`); `on` accepts
 * `before_tool_call` and `before_prompt` handlers; misuse throws a clear error inside `register`.
 */
export function createPluginApi(options: {
  manifest: PluginManifest;
  config: unknown;
  log: (entry: PluginLogEntry) => void;
}): PluginRegistration {
  const { manifest, log } = options;
  const tools: ToolDefinition[] = [];
  const names = new Set<string>();
  const beforeToolCall: PluginHook<BeforeToolCallEvent, BeforeToolCallResult>[] = [];
  const beforePrompt: PluginHook<BeforePromptEvent, BeforePromptResult>[] = [];
  let closed = false;

  const write = (level: PluginLogEntry["level"], message: unknown): void => {
    try {
      log({ pluginId: manifest.id, level, message: boundMessage(String(message)) });
    } catch {
      // A failing log sink must not break the plugin.
    }
  };

  const lateCall = (what: string): boolean => {
    if (!closed) return false;
    write(
      "warn",
      `${what} called after register() finished (or failed); ignored. Register everything inside register().`,
    );
    return true;
  };

  const api: PluginApi = Object.freeze({
    id: manifest.id,
    config: options.config,
    registerTool(definition: ToolDefinition): void {
      if (lateCall("registerTool")) return;
      const copy = copyDefinition(manifest, definition, names);
      names.add(copy.name);
      tools.push(copy);
    },
    on(event: string, handler: unknown): void {
      if (lateCall(`on(${JSON.stringify(String(event))})`)) return;
      if (typeof handler !== "function")
        refuse(`Plugin "${manifest.id}": on("${String(event)}") needs a handler function.`);
      const pluginId = manifest.id;
      if (event === "before_tool_call") {
        beforeToolCall.push(Object.freeze({ pluginId, handler: handler as BeforeToolCallHandler }));
      } else if (event === "before_prompt") {
        beforePrompt.push(Object.freeze({ pluginId, handler: handler as BeforePromptHandler }));
      } else {
        refuse(
          `Plugin "${manifest.id}" subscribed to the unknown event ${JSON.stringify(String(event))}; use "before_tool_call" or "before_prompt".`,
        );
      }
    },
    log: Object.freeze({
      info: (message: string) => write("info", message),
      warn: (message: string) => write("warn", message),
    }),
  }) as PluginApi;

  return {
    api,
    tools,
    beforeToolCall,
    beforePrompt,
    close: () => {
      closed = true;
    },
  };
}
