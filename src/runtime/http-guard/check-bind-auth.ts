import { ToolsiftError } from "../../shared/errors/index.js";
import { isLoopbackHost } from "./is-loopback-host.js";

/** The address a front door (the gateway, `mcp serve --http`) binds when none is given: loopback only. */
export const DEFAULT_BIND_HOST = "127.0.0.1";

/** The environment variable the docs and refusals suggest for the token (`gateway.auth.token: "env:…"`). */
export const TOKEN_VARIABLE = "TOOLSIFT_GATEWAY_TOKEN";

/** Where a front door is about to listen, and the auth it would serve with (`gateway.auth`). */
export type BindAuth = {
  /** The address to bind. */
  host: string;
  /** `gateway.auth.token`, already resolved from `env:`. Default: none. */
  token?: string;
  /** `gateway.auth.keys`. Default: none. */
  keys?: readonly unknown[];
  /** The config file the settings came from, named in the refusal. Default: not named. */
  configPath?: string;
};

/** True for a token no client could present: empty, or only whitespace. */
export function isBlankToken(token: string): boolean {
  return token.trim().length === 0;
}

/**
 * The one "auth off loopback" rule of every front door (the gateway, `mcp serve --http`), checked before
 * anything listens: a token that is empty or only whitespace is refused wherever the server binds, and an
 * address other than loopback needs a token or keys, so that other machines must present one. Throws
 * CONFIG_INVALID naming the setting to change; returns nothing when the bind is allowed.
 */
export function checkBindAuth(options: BindAuth): void {
  const where = options.configPath === undefined ? "" : ` in ${options.configPath}`;
  if (options.token !== undefined && isBlankToken(options.token)) throw blankTokenError(where);
  if (isLoopbackHost(options.host) || options.token !== undefined || (options.keys?.length ?? 0) > 0) return;
  throw new ToolsiftError(
    "CONFIG_INVALID",
    `Refusing to listen on ${options.host}: a non-loopback address needs gateway.auth.token or gateway.auth.keys` +
      `${where} (for example "env:${TOKEN_VARIABLE}", with ${TOKEN_VARIABLE} set to a long random value), so ` +
      "that other machines must send a bearer token. Or bind to 127.0.0.1.",
  );
}

/** The refusal of a blank `gateway.auth.token`, naming the config file when known (`where`: " in <file>"). */
export function blankTokenError(where = ""): ToolsiftError {
  return new ToolsiftError(
    "CONFIG_INVALID",
    `gateway.auth.token is empty or only whitespace${where}: set a long random token (for example ` +
      `"env:${TOKEN_VARIABLE}"), or leave the key out to serve loopback only.`,
  );
}
