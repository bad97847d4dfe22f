import type { Context } from "hono";
import { clientAborted, requestBodyCut } from "../client-aborted.js";
import { GatewayError, invalidRequest } from "../gateway-error.js";
import { MAX_JSON_DEPTH } from "../limits.js";
import { jsonDepthExceeds } from "./json-depth-exceeds.js";

/**
 * Reads the request body as JSON, within the size cap: a declared `Content-Length` over `maxBytes` is a 413
 * before anything is read, and so is a (chunked) body whose bytes pass the cap as they arrive. An empty body,
 * invalid JSON, or nesting deeper than `MAX_JSON_DEPTH` is a 400, so nothing downstream walks a hostile depth.
 * A body the client stops sending (it hung up, or the request timeout cut it) is the `client_aborted` error.
 * Without `maxBytes`, the caller caps the body (a body-limit middleware). The content type is not looked at
 * here: the shared guard (`src/runtime/http-guard`) lets a POST reach a route only with a JSON `Content-Type` (415
 * otherwise), so a browser's cross-site `text/plain` or form body is never read.
 */
export async function readJsonBody(c: Context, maxBytes?: number): Promise<unknown> {
  if (maxBytes !== undefined) {
    const declared = Number(c.req.header("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  }
  const text = await readText(c, maxBytes);
  if (text.trim().length === 0) {
    throw invalidRequest(undefined, "the request body is empty: send a JSON object.", "invalid_json");
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message.slice(0, 200)}` : "";
    throw invalidRequest(undefined, `the request body is not valid JSON${reason}.`, "invalid_json");
  }
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    throw invalidRequest(
      undefined,
      `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels: send a flatter body (no input item, content part or tool schema needs that depth).`,
      "json_too_deep",
    );
  }
  return value;
}

async function readText(c: Context, maxBytes: number | undefined): Promise<string> {
  const body = c.req.raw.body;
  if (body === null) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (maxBytes !== undefined && size > maxBytes) {
        void reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    const cut = requestBodyCut(c);
    if (cut !== undefined) throw clientAborted(cut);
    throw error;
  }
  parts.push(decoder.decode());
  return parts.join("");
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError(413, `the request body is larger than ${maxBytes} bytes: send a smaller request.`, {
    type: "invalid_request_error",
    code: "request_too_large",
  });
}
