import { APIError } from "@anthropic-ai/sdk";
import { expect } from "vitest";

/** The body of an error answer, asserting it is exactly Anthropic's shape with no stack trace. */
export async function anthropicError(response: Response): Promise<{ type: string; message: string }> {
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at\s|\.js:\d+:\d+|\.ts:\d+:\d+/u);
  const body = JSON.parse(text) as { type: string; error: { type: string; message: string } };
  expect(Object.keys(body).sort()).toEqual(["error", "type"]);
  expect(body.type).toBe("error");
  expect(Object.keys(body.error).sort()).toEqual(["message", "type"]);
  return body.error;
}

/** The error the SDK raises for a request, or a failure when it does not raise one. */
export async function sdkError(promise: Promise<unknown>): Promise<APIError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}
