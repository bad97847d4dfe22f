import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MARKER_PROMPT } from "./browser-safety.test-support.js";

/**
 * The script of a page: three fetches at the gateway's run endpoint with the marker prompt (the `cors JSON`
 * one with `?json=` instead, when given). `no-cors` + `text/plain` is the "simple" request a page can send
 * anywhere without a preflight.
 */
const ATTACK_SCRIPT = `
const params = new URL(location.href).searchParams;
const gateway = params.get("gateway");
const marker = JSON.stringify({ input: ${JSON.stringify(MARKER_PROMPT)} });
const json = params.has("json") ? JSON.stringify({ input: params.get("json") }) : marker;
async function attempt(name, init, body) {
  try {
    const response = await fetch(gateway + "/v1/responses", { method: "POST", body, ...init });
    let text = "";
    try { text = await response.text(); } catch {}
    const session = response.headers.get("x-toolsift-session");
    return { name, outcome: response.type, status: response.status, text, session };
  } catch (error) {
    return { name, outcome: "blocked", status: 0, text: String(error), session: null };
  }
}
(async () => {
  window.__results = [
    await attempt("no-cors text/plain", { mode: "no-cors", headers: { "content-type": "text/plain" } }, marker),
    await attempt("cors text/plain", { mode: "cors", headers: { "content-type": "text/plain" } }, marker),
    await attempt("cors JSON", { mode: "cors", headers: { "content-type": "application/json" } }, json),
  ];
  document.title = "done";
})();
`;

/** The same prompt smuggled in a form: text/plain forms send `name=value`, which here is valid JSON. */
function formPage(enctype: string): string {
  const name = `{"input":${JSON.stringify(MARKER_PROMPT)},"pad":"`;
  return `<!doctype html><title>form</title><body>
<form method="POST" enctype="${enctype}"><input type="hidden" name='${name}' value='"}'></form>
<script>
const form = document.forms[0];
form.action = new URL(location.href).searchParams.get("gateway") + "/v1/responses";
form.submit();
</script></body>`;
}

/** A page server on 127.0.0.1 (another port, so another origin): `/attack` and `/form?enctype=…`. */
export type AttackPageServer = { port: number; close(): Promise<void> };

/** Starts the hostile page server on an ephemeral port. */
export function startAttackPageServer(): Promise<AttackPageServer> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://page.invalid");
    const html =
      url.pathname === "/attack"
        ? `<!doctype html><title>attack</title><body><script>${ATTACK_SCRIPT}</script></body>`
        : url.pathname === "/form"
          ? formPage(url.searchParams.get("enctype") ?? "text/plain")
          : undefined;
    response.writeHead(html === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
    response.end(html ?? "not found");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
