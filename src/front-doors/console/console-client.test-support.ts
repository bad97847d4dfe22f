import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";

export type ConsoleAnswer = { status: number; body: Record<string, unknown>; headers: Headers };

/** A browser-like client of one console: it keeps the cookie and the CSRF token, and sends its own Origin. */
export function consoleClient(url: string) {
  let cookie: string | undefined;
  let csrf = "bootstrap";
  const send = async (
    method: "GET" | "POST",
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; omit?: string[] } = {},
  ): Promise<ConsoleAnswer> => {
    const headers: Record<string, string> = {
      [CSRF_HEADER]: csrf,
      "sec-fetch-site": "same-origin",
      ...(cookie === undefined ? {} : { cookie: `${SESSION_COOKIE}=${cookie}` }),
      ...(method === "POST" ? { origin: url, "content-type": "application/json" } : {}),
      ...options.headers,
    };
    for (const name of options.omit ?? []) delete headers[name];
    const response = await fetch(`${url}/console/api${path}`, {
      method,
      headers,
      ...(method === "POST" ? { body: JSON.stringify(options.body ?? {}) } : {}),
    });
    const set = response.headers.get("set-cookie");
    const value = set === null ? undefined : new RegExp(`${SESSION_COOKIE}=([^;]*)`, "u").exec(set)?.[1];
    if (value !== undefined) cookie = value === "" ? undefined : value;
    const body = (await response.json()) as Record<string, unknown>;
    if (typeof body.csrf === "string") csrf = body.csrf;
    return { status: response.status, body, headers: response.headers };
  };
  return {
    send,
    get cookie() {
      return cookie;
    },
    get csrf() {
      return csrf;
    },
    async login(token: string): Promise<ConsoleAnswer> {
      await send("GET", "/session");
      return send("POST", "/login", { body: { token } });
    },
  };
}
