import type { Context } from "hono";
import { invalidRequest } from "./gateway-error.js";

/**
 * Reads the request body as JSON (whatever the content type says: curl's default form type included).
 * An empty body or invalid JSON is a 400; the size cap is enforced before, by the body-limit middleware.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim().length === 0) {
    throw invalidRequest(undefined, "the request body is empty: send a JSON object.", "invalid_json");
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : "";
    throw invalidRequest(undefined, `the request body is not valid JSON${reason}.`, "invalid_json");
  }
}
