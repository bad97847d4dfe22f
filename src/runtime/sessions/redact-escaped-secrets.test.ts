import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileSessionStore } from "./file-session-store.js";
import { redactKnownValues } from "./redact-known-values.js";
import { REDACTED } from "./redact-secrets.js";
import { redactSessionEvent } from "./redact-session-event.js";
import type { SessionEvent } from "./types.js";

/** A run's known secret (its shape alone would not give it away) and the same text with a JSON escape. */
const SECRET = "zq7-PlainLookingValue-4242";
const ESCAPED = SECRET.replace("P", "\\u0050");

/** Every string in `value`, and in any JSON parsed out of a string, however deep. */
function decodedStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") {
    out.push(value);
    try {
      decodedStrings(JSON.parse(value), out);
    } catch {
      // Not JSON: the string itself is all there is.
    }
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) decodedStrings(item, out);
  }
  return out;
}

const toolResult = (output: string): SessionEvent => ({
  type: "tool-result",
  at: "2026-12-02T00:00:00.000Z",
  callId: "call_1",
  name: "echo",
  isError: false,
  output,
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolsift-escaped-secret-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a known secret spelled with JSON escapes inside JSON text", () => {
  const outputs = [
    // Alone: the escape would survive as text, and any reader parsing the output gets the secret back.
    `{"note":"${ESCAPED}"}`,
    // Beside a secret-named key: redacting that key re-serialises the JSON, which must not write the escaped secret out plainly.
    `{"note":"${ESCAPED}","password":"hunter2-hunter2"}`,
    // Nested one level deeper, in an array.
    `{"items":[{"text":"see ${ESCAPED} here"}]}`,
  ];

  it.each(outputs)("never reaches the log line, even decoded: %s", async (output) => {
    const store = createFileSessionStore(dir);
    const key = `s-${outputs.indexOf(output)}`;
    await store.append("main", key, redactSessionEvent(toolResult(output), new Set([SECRET])));
    const text = await readFile(join(dir, "agents", "main", "sessions", `${key}.jsonl`), "utf8");
    expect(text).not.toContain(SECRET);
    const line = JSON.parse(text.trim()) as unknown;
    for (const value of decodedStrings(line)) expect(value).not.toContain(SECRET);
    expect(text).toContain(REDACTED);
  });

  it("redactKnownValues replaces it inside JSON text and leaves other JSON text as it was written", () => {
    const redacted = redactKnownValues({ output: `{"note": "${ESCAPED}"}` }, [SECRET]);
    expect(JSON.parse(redacted.output)).toEqual({ note: REDACTED });
    const untouched = { output: '{ "note":  "nothing secret here" }' };
    expect(redactKnownValues(untouched, [SECRET])).toBe(untouched);
  });

  it("text that is not JSON keeps its backslash escape as text (nothing decodes it)", () => {
    const event = redactSessionEvent(toolResult(`prefix ${ESCAPED}`), new Set([SECRET]));
    expect(JSON.stringify(event)).not.toContain(SECRET);
  });
});
