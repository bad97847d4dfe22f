import { resolve } from "node:path";
import { formatConfigPath, isPlainRecord, readConfigPath } from "../../runtime/config/index.js";
import { cutText, LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";
import { findExecutable } from "./find-executable.js";
import type { DoctorCheck } from "./types.js";

/**
 * One finding per `mcp.servers` entry, without starting anything: a stdio server's `command` must resolve (on
 * the PATH it would get, or as a path relative to its `cwd`, which is relative to `configDir`); a Streamable
 * HTTP server's `url` must be an http(s) URL, and is not contacted.
 */
export async function checkMcpServers(
  config: unknown,
  options: { configDir: string; env: NodeJS.ProcessEnv },
): Promise<DoctorCheck[]> {
  const servers = readConfigPath(config, ["mcp", "servers"]).value;
  if (!isPlainRecord(servers) || Object.keys(servers).length === 0) {
    return [{ name: "mcp-servers", status: "ok", message: "no MCP servers configured" }];
  }
  const checks: DoctorCheck[] = [];
  for (const [name, server] of Object.entries(servers)) {
    checks.push(await checkServer(name, server, options));
  }
  return checks;
}

async function checkServer(
  name: string,
  server: unknown,
  options: { configDir: string; env: NodeJS.ProcessEnv },
): Promise<DoctorCheck> {
  const key = formatConfigPath(["mcp", "servers", name]);
  const fail = (message: string, fix: string): DoctorCheck => ({
    name: "mcp-servers",
    status: "error",
    message: `${name}: ${message}`,
    fix,
  });
  const command = readConfigPath(server, ["command"]).value;
  const url = readConfigPath(server, ["url"]).value;
  if (typeof command === "string") {
    const cwdValue = readConfigPath(server, ["cwd"]).value;
    const cwd = resolve(options.configDir, typeof cwdValue === "string" ? cwdValue : ".");
    const serverPath = readConfigPath(server, ["env", "PATH"]).value;
    const lookup = await findExecutable(command, {
      cwd,
      path: typeof serverPath === "string" ? serverPath : options.env.PATH,
      pathExt: options.env.PATHEXT,
    });
    if ("problem" in lookup && /\s/u.test(command.trim())) {
      const [program = "", ...words] = command.trim().split(/\s+/u);
      return fail(
        `command ${JSON.stringify(cutText(command, LONGEST_SHOWN_VALUE))}: ${lookup.problem}; it looks like a program with its arguments`,
        `set ${key}.command to ${JSON.stringify(program)} and put the arguments in ${key}.args: ${JSON.stringify(words)}`,
      );
    }
    if ("problem" in lookup) {
      return fail(
        `command ${JSON.stringify(cutText(command, LONGEST_SHOWN_VALUE))}: ${lookup.problem}`,
        `install it, or set ${key}.command to its full path`,
      );
    }
    return { name: "mcp-servers", status: "ok", message: `${name}: command found at ${lookup.found}` };
  }
  if (typeof url === "string") {
    const shown = showUrl(url);
    if (shown === undefined) {
      return fail(
        `url ${JSON.stringify(cutText(url, LONGEST_SHOWN_VALUE))} is not an http(s) URL`,
        `set ${key}.url to the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp`,
      );
    }
    return {
      name: "mcp-servers",
      status: "ok",
      message: `${name}: url ${shown} is well formed (not contacted)`,
    };
  }
  return fail(
    "has neither command nor url",
    `set ${key}.command (a stdio server) or ${key}.url (Streamable HTTP)`,
  );
}

/** The URL without credentials, query or fragment (they may hold secrets), or undefined when not http(s). */
function showUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return undefined;
  }
}
