/** Checks arguments against the few shapes core tools take, with messages that tell the model the fix. */
export type ArgumentSpec = Record<
  string,
  { type: "string" | "integer"; required?: boolean; minimum?: number }
>;

/** The arguments as a record, or a message naming the first problem. */
export function readArguments(
  tool: string,
  args: unknown,
  spec: ArgumentSpec,
): { ok: true; values: Record<string, unknown> } | { ok: false; message: string } {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return { ok: false, message: `${tool} takes an object of arguments: ${describe(spec)}.` };
  }
  const values = args as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    if (!(key in spec)) {
      return {
        ok: false,
        message: `${tool} has no argument "${key.slice(0, 64)}"; it takes ${describe(spec)}.`,
      };
    }
  }
  for (const [key, rule] of Object.entries(spec)) {
    const value = values[key];
    if (value === undefined) {
      if (rule.required) return { ok: false, message: `${tool} needs "${key}" (${rule.type}).` };
      continue;
    }
    if (rule.type === "string" && typeof value !== "string") {
      return { ok: false, message: `${tool}: "${key}" must be a string.` };
    }
    if (rule.type === "integer") {
      const minimum = rule.minimum ?? 0;
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum) {
        return { ok: false, message: `${tool}: "${key}" must be a whole number of at least ${minimum}.` };
      }
    }
  }
  return { ok: true, values };
}

function describe(spec: ArgumentSpec): string {
  return `{ ${Object.entries(spec)
    .map(([key, rule]) => `${key}${rule.required ? "" : "?"}: ${rule.type}`)
    .join(", ")} }`;
}
