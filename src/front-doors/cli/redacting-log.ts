import type { ToolsiftConfig } from "../../runtime/config/index.js";
import { isSecretKeyName, redactKnownValues, redactText } from "../../runtime/sessions/index.js";

/**
 * The secrets a loaded config holds (after `env:` resolution): every provider's `apiKey`, the gateway's
 * `auth.token`, and the values of secret-named provider headers and MCP server `env` / `headers` entries
 * (`Authorization`, `X-Api-Key`, `GITHUB_TOKEN`, …).
 */
export function configSecrets(config: ToolsiftConfig): string[] {
  const found: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value.length > 0) found.push(value);
  };
  const addSecretEntries = (entries: Record<string, string> | undefined) => {
    for (const [name, value] of Object.entries(entries ?? {})) if (isSecretKeyName(name)) add(value);
  };
  for (const provider of Object.values(config.models?.providers ?? {})) {
    add(provider.apiKey);
    addSecretEntries(provider.headers);
  }
  add(config.gateway?.auth?.token);
  for (const key of config.gateway?.auth?.keys ?? []) add(key.token);
  for (const server of Object.values(config.mcp?.servers ?? {})) {
    addSecretEntries(server.env);
    addSecretEntries(server.headers);
  }
  addSecretEntries(config.telemetry?.otlp?.headers);
  return found;
}

/**
 * `log`, with each line stripped of the known `secrets` (the config's, see configSecrets) and passed through
 * redactText (keys, bearer tokens, secret assignments by their shape): a log is often shipped to places the
 * state directory is not.
 */
export function redactingLog(
  log: (line: string) => void,
  secrets: readonly string[],
): (line: string) => void {
  return (line) => log(redactText(redactKnownValues(line, secrets)));
}
