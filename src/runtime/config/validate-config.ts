import type * as z from "zod";
import { validateToolSearchConfig } from "../../core/tool-search/index.js";
import { cutText, describeValue, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";
import { checkConfigStructure } from "./check-config-structure.js";
import { type ConfigPathSegment, formatConfigPath, isPlainRecord, readConfigPath } from "./config-path.js";
import { configFileSchema, OMIT_RECEIVED } from "./config-schema.js";
import { isEnvReference } from "./env-reference.js";
import { DEFAULT_MODEL_PROVIDER } from "./resolve-agent.js";
import { isModelReference } from "./schema-fields.js";
import type { ConfigIssue } from "./types.js";

/** A config issue with the path as segments when known (toolSearch issues carry only the text path). */
export interface LocatedConfigIssue extends ConfigIssue {
  segments?: ConfigPathSegment[];
}

/**
 * Every problem in a whole config value (the parsed file, before `env:` values are resolved), each as
 * `path: message`, in a stable order; empty when the file is valid. Pure, and never throws.
 */
export function validateConfig(raw: unknown): ConfigIssue[] {
  return locateConfigIssues(raw).map(({ path, message }) => ({ path, message }));
}

/** validateConfig with each issue's path also as segments, for callers that look the value up. */
export function locateConfigIssues(raw: unknown): LocatedConfigIssue[] {
  const structure = checkConfigStructure(raw);
  const issues: LocatedConfigIssue[] = [...structure];
  const covered = structure.map((entry) => entry.segments);
  const isCovered = (segments: readonly ConfigPathSegment[]) =>
    covered.some(
      (prefix) => prefix.length <= segments.length && prefix.every((key, i) => key === segments[i]),
    );

  let schemaIssues: z.core.$ZodIssue[];
  try {
    const result = configFileSchema.safeParse(raw);
    schemaIssues = result.success ? [] : result.error.issues;
  } catch {
    // A value that makes the schema throw (a revoked Proxy, a throwing getter) is already reported above.
    if (issues.length > 0) return issues;
    return [...issues, { segments: [], path: formatConfigPath([]), message: "could not be read" }];
  }

  for (const issue of schemaIssues) {
    for (const entry of describeSchemaIssue(issue, raw)) {
      if (!isCovered(entry.segments)) issues.push({ ...entry, path: formatConfigPath(entry.segments) });
    }
  }

  const tools = readConfigPath(raw, ["tools"]).value;
  if (isPlainRecord(tools) && !isCovered(["tools", "toolSearch"])) {
    const coveredPaths = structure.map((entry) => entry.path);
    for (const entry of validateToolSearchConfig(readConfigPath(tools, ["toolSearch"]).value)) {
      const under = (prefix: string) =>
        entry.path === prefix || entry.path.startsWith(`${prefix}.`) || entry.path.startsWith(`${prefix}[`);
      if (!coveredPaths.some(under)) issues.push(entry);
    }
  }

  for (const entry of [...checkDuplicateAgents(raw), ...checkModelProviders(raw)]) {
    const path = entry.path;
    if (!isCovered(entry.segments) && !issues.some((issue) => issue.path === path)) issues.push(entry);
  }
  return issues;
}

/** Turns one zod issue into `path: message` entries, naming what was received where that helps. */
function describeSchemaIssue(
  issue: z.core.$ZodIssue,
  raw: unknown,
): { segments: ConfigPathSegment[]; message: string }[] {
  const segments = issue.path.filter((key): key is ConfigPathSegment => typeof key !== "symbol");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ segments: [...segments, key], message: issue.message }));
  }
  if (issue.code === "invalid_key") {
    return [{ segments, message: issue.issues[0]?.message ?? issue.message }];
  }
  const received = readConfigPath(raw, segments);
  if (!received.found || received.value === undefined) {
    const expected = issue.code === "invalid_value" ? ` (${issue.message})` : "";
    return [{ segments, message: `required${expected}` }];
  }
  if (issue.code === "custom" && issue.params?.[OMIT_RECEIVED] === true)
    return [{ segments, message: issue.message }];
  const hint =
    isEnvReference(received.value) && issue.code === "invalid_type"
      ? '; "env:NAME" references work only in string values'
      : "";
  return [{ segments, message: `${issue.message} (got ${describeValue(received.value)}${hint})` }];
}

/** Two `agents.list` entries with one id would make one of them unreachable. */
function checkDuplicateAgents(raw: unknown): (LocatedConfigIssue & { segments: ConfigPathSegment[] })[] {
  const list = readConfigPath(raw, ["agents", "list"]).value;
  if (!Array.isArray(list)) return [];
  const firstIndex = new Map<string, number>();
  const issues: (LocatedConfigIssue & { segments: ConfigPathSegment[] })[] = [];
  list.forEach((_, index) => {
    const segments = ["agents", "list", index, "id"];
    const id = readConfigPath(raw, segments).value;
    if (typeof id !== "string") return;
    const earlier = firstIndex.get(id);
    if (earlier === undefined) firstIndex.set(id, index);
    else {
      issues.push({
        segments,
        path: formatConfigPath(segments),
        message: `duplicate agent id ${JSON.stringify(cutText(id, LONGEST_SHOWN_VALUE))} (first at agents.list[${earlier}])`,
      });
    }
  });
  return issues;
}

/** A model naming a provider that is neither configured nor built in is a typo waiting to fail at run time. */
function checkModelProviders(raw: unknown): (LocatedConfigIssue & { segments: ConfigPathSegment[] })[] {
  const providers = readConfigPath(raw, ["models", "providers"]).value;
  const models: [ConfigPathSegment[], unknown][] = [
    [["agents", "defaults", "model"], readConfigPath(raw, ["agents", "defaults", "model"]).value],
  ];
  const list = readConfigPath(raw, ["agents", "list"]).value;
  if (Array.isArray(list)) {
    list.forEach((_, index) => {
      const segments = ["agents", "list", index, "model"];
      models.push([segments, readConfigPath(raw, segments).value]);
    });
  }
  const issues: (LocatedConfigIssue & { segments: ConfigPathSegment[] })[] = [];
  for (const [segments, model] of models) {
    if (typeof model !== "string" || isEnvReference(model) || !isModelReference(model)) continue;
    const slash = model.indexOf("/");
    const provider = slash === -1 ? DEFAULT_MODEL_PROVIDER : model.slice(0, slash);
    if (provider === DEFAULT_MODEL_PROVIDER) continue;
    if (isPlainRecord(providers) && Object.hasOwn(providers, provider)) continue;
    issues.push({
      segments,
      path: formatConfigPath(segments),
      message: `provider ${JSON.stringify(provider)} is not configured (add it under models.providers, or use an "openai/…" model)`,
    });
  }
  return issues;
}
