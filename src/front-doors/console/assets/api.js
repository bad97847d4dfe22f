// Calls to the console's JSON API, with the session's CSRF token on every request.

const CSRF_HEADER = "x-console-csrf";
let csrf = "bootstrap";

/** Keeps the session's CSRF token (from `GET /console/api/session` or a login) for every later call. */
export function useCsrf(token) {
  csrf = token;
}

/** The headers every console API request carries (the CSRF token), for readers of live streams (live.js). */
export function apiHeaders() {
  return { [CSRF_HEADER]: csrf };
}

export async function api(path, options = {}) {
  const headers = { [CSRF_HEADER]: csrf };
  const init = { method: options.method ?? "GET", headers, credentials: "same-origin", cache: "no-store" };
  if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(`/console/api${path}`, init);
  let data;
  try {
    data = await response.json();
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const error = new Error(data?.error?.message ?? `the gateway answered ${response.status}`);
    error.status = response.status;
    error.code = data?.error?.code;
    throw error;
  }
  return data;
}

/** The CSRF header for a request `api()` does not make (the chat's streamed answer is read with `fetch`). */
export function csrfHeaders() {
  return { [CSRF_HEADER]: csrf };
}
