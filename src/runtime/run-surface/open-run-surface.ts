import type { ToolDefinition } from "../../core/catalog/index.js";
import { libraryRuntimeCaches, type RunSurfaceEnvironment } from "../environment/index.js";
import { applyToolPolicy } from "../policy/index.js";
import { attributionOf, declareTools } from "./declared-tools.js";
import { executeSurfaceCall, type SurfaceCallTarget } from "./execute-surface-call.js";
import { openToolSearch } from "./open-tool-search.js";
import { createRunHooks } from "./run-hooks.js";
import { traceRunSurface } from "./trace-run-surface.js";
import type { RunSurface, RunSurfaceRun } from "./types.js";

/**
 * Opens the surface of one run: applies the profile's policy to its tools (and the client's), opens Tool
 * Search (or Code Mode over it) with the environment's settings and the shared hooks (policy re-check,
 * plugin hooks, approvals, target activity), lets `before_prompt` hooks narrow it, and declares the model
 * tools. A tool that Tool Search returns as it is (Tool Search off, or a direct-only tool beside Code Mode)
 * is routed through an executor of its own, MCP tools declared as `<server>__<tool>`: no declared tool
 * bypasses the pipeline.
 */
export async function openRunSurface(
  environment: RunSurfaceEnvironment,
  run: RunSurfaceRun,
): Promise<RunSurface> {
  const { policy } = run.profile;
  const caches = environment.caches ?? libraryRuntimeCaches();
  // The run's sources are often the very definitions of the last run (or the same version of them): their
  // verdicts (and the catalog built from the admitted list) are shared. The client's tools are new with
  // every request.
  const admit = (given: readonly ToolDefinition[]) =>
    policy ? caches.policies.apply(given, policy).admitted : given;
  const shared = policy
    ? caches.policies.apply(run.tools, policy, run.toolsVersion)
    : { admitted: run.tools, version: run.toolsVersion };
  const clientTools = run.clientTools ?? [];
  const admitted = {
    tools: shared.admitted,
    clientTools: policy ? applyToolPolicy(clientTools, policy).admitted : [...clientTools],
    ...(shared.version === undefined ? {} : { version: shared.version }),
  };
  const hooks = createRunHooks({
    ...environment,
    ...(policy ? { policy } : {}),
    agentId: run.profile.id,
    sessionKey: run.sessionKey,
    ...(run.keyId === undefined ? {} : { keyId: run.keyId }),
    // Calls made inside `tool_call` run on the control surface with the model's call id.
    isTargetCall: (activity) => activity.surface === "control" && activity.toolCallId !== undefined,
    onTargetActivity: (activity) => run.onTargetActivity?.(activity),
    onApproval: (record) => run.onApproval?.(record),
  });
  const opened = await openToolSearch({ environment: { ...environment, caches }, run, admitted, hooks });
  const { search } = opened;
  let declared = declareTools(opened, hooks);
  const target: SurfaceCallTarget = {
    lookUp: (name) => declared.byName.get(name) ?? search.resolveDirectoryName(name),
    attributionOf: (tool) => attributionOf(declared, tool),
    toolSearchEnabled: search.enabled,
    ...(run.onEvent ? { onEvent: run.onEvent } : {}),
    unknownToolText: run.unknownToolText,
  };

  return traceRunSurface({
    toolSearchEnabled: search.enabled,
    mode: search.mode,
    modelTools: () => declared.tools,
    directory: () => search.directory(),
    describeCall(name) {
      const tool = target.lookUp(name);
      return tool ? target.attributionOf(tool) : {};
    },
    execute: (name, args, context) => executeSurfaceCall(target, { name, args, context }),
    telemetry: () => search.telemetry(),
    warmSearch() {
      if (search.enabled) search.search("warm up the search index", { limit: 1 });
    },
    replaceTools(next) {
      search.replaceTools(admit(next));
      declared.routed?.close();
      declared = declareTools(opened, hooks);
    },
    close() {
      declared.routed?.close();
      search.close();
      void opened.codeMode?.close();
    },
  });
}
