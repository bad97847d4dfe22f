import { formatConfigPath, readConfigPath } from "../../runtime/config/index.js";
import { validatePolicySelectors } from "../../runtime/policy/index.js";
import type { DoctorCheck } from "./types.js";

const APPROVAL_PATH = "tools.approval";

/**
 * Checks every tool policy layer (`tools`, `agents.list[].tools`, `agents.list[].sandbox.tools`) and
 * `tools.approval.require` with the policy's own selector rules: a selector that matches nothing (an unknown
 * group, `plugin:` without an id, stray spaces) is an error, since it silently allows or denies less than meant.
 */
export function checkPolicy(config: unknown): DoctorCheck[] {
  const layers: [unknown, string][] = [[readConfigPath(config, ["tools"]).value, "tools"]];
  const list = readConfigPath(config, ["agents", "list"]).value;
  if (Array.isArray(list)) {
    list.forEach((_, index) => {
      for (const segments of [
        ["agents", "list", index, "tools"],
        ["agents", "list", index, "sandbox", "tools"],
      ]) {
        const layer = readConfigPath(config, segments);
        if (layer.found) layers.push([layer.value, formatConfigPath(segments)]);
      }
    });
  }
  const problems = layers.flatMap(([settings, label]) =>
    validatePolicySelectors(pickPolicyKeys(settings), label),
  );
  const require = readConfigPath(config, ["tools", "approval", "require"]);
  if (require.found) {
    // The approval list uses the selector syntax of deny lists; report it under its own key.
    for (const problem of validatePolicySelectors({ deny: require.value }, APPROVAL_PATH)) {
      problems.push(problem.replace(`${APPROVAL_PATH}.deny`, `${APPROVAL_PATH}.require`));
    }
  }
  if (problems.length === 0) {
    return [{ name: "policy", status: "ok", message: "every policy selector can match a tool" }];
  }
  return problems.map((problem) => ({
    name: "policy",
    status: "error",
    message: problem,
    fix: "fix the selector, or remove it",
  }));
}

/** Only the policy keys: `tools` also holds toolSearch and approval, which are not selectors. */
function pickPolicyKeys(settings: unknown): unknown {
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) return settings;
  const picked: Record<string, unknown> = {};
  for (const key of ["profile", "allow", "alsoAllow", "deny"]) {
    const value = readConfigPath(settings, [key]);
    if (value.found) picked[key] = value.value;
  }
  return picked;
}
