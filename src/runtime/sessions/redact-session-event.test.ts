import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileSessionStore } from "./file-session-store.js";
import { MAX_REDACTION_NODES } from "./limits.js";
import { parseJsonText, surelyNotJson } from "./parse-json-text.js";
import { redactKnownValues } from "./redact-known-values.js";
import { REDACTED, redactedJson, redactSecrets, TRUNCATED } from "./redact-secrets.js";
import { redactSessionEvent, takeRedactedLine } from "./redact-session-event.js";
import { redactText, redactTextWithoutShortcuts } from "./redact-text.js";
import {
  generatedText,
  generatedValue,
  hostileEvents,
  KNOWN_SECRETS,
  seededRandom,
  TEXT_FRAGMENTS,
} from "./redaction-probes.test-support.js";
import type { SessionEvent } from "./types.js";

/** Generated events per secret set: enough to meet every fragment, key and hostile value many times. */
const GENERATED_EVENTS = 3_000;
const GENERATED_TEXTS = 20_000;

const EVENT_TYPES = [
  "user-input",
  "assistant-output",
  "tool-result",
  "target-activity",
  "run-summary",
] as const;

/** JSON.stringify's answer, or that it threw. */
function jsonOrThrow(make: () => string | undefined): string | undefined {
  try {
    return make();
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
}

/** The line the store writes for what redactSessionEvent returned (its own line, else a walk of it). */
function lineOf(event: unknown, known: readonly string[]): { returned: unknown; line: string | undefined } {
  const returned = redactSessionEvent(event as SessionEvent, known);
  const line =
    takeRedactedLine(returned as object) ?? jsonOrThrow(() => redactedJson(returned as SessionEvent));
  return { returned, line };
}

/** What the runner and store wrote before: known values redacted, then the store's redaction. */
function twoWalks(event: unknown, known: readonly string[]): string | undefined {
  return jsonOrThrow(() => redactedJson(redactKnownValues(event, known)));
}

/** The same as a copy: the redacted copy's JSON, with no walk that only checks. */
function copied(event: unknown, known: readonly string[]): string | undefined {
  return jsonOrThrow(() => JSON.stringify(redactSecrets(redactKnownValues(event, known))));
}

function generatedEvents(seed: number): Array<Record<string, unknown>> {
  const random = seededRandom(seed);
  return Array.from({ length: GENERATED_EVENTS }, (_, index) => ({
    type: EVENT_TYPES[index % EVENT_TYPES.length],
    at: "2026-01-01T00:00:00.000Z",
    runId: `run_${index}`,
    payload: generatedValue(random, 0),
    text: generatedText(random),
  }));
}

const SECRET_SETS: Array<{ name: string; known: readonly string[] }> = [
  { name: "no known secrets", known: [] },
  { name: "a provider key", known: [KNOWN_SECRETS[0] ?? ""] },
  { name: "several secrets, one with quotes and a backslash", known: KNOWN_SECRETS },
];

describe("redactSessionEvent: one walk writes what the two walks wrote", () => {
  for (const { name, known } of SECRET_SETS) {
    it(`hostile events, ${name}`, () => {
      for (const { probe, event } of hostileEvents()) {
        const { returned, line } = lineOf(event, known);
        expect(line, probe).toBe(twoWalks(event, known));
        expect(line, probe).toBe(copied(event, known));
        expect(returned, probe).toStrictEqual(redactKnownValues(event, known));
      }
    });

    it(`${GENERATED_EVENTS} generated events, ${name}`, () => {
      let passedOn = 0;
      for (const event of generatedEvents(known.length + 1)) {
        const { returned, line } = lineOf(event, known);
        expect(line).toBe(twoWalks(event, known));
        expect(line).toBe(copied(event, known));
        const expected = redactKnownValues(event, known);
        if (expected === event) {
          passedOn += 1;
          expect(returned).toBe(event);
        } else expect(returned).toStrictEqual(expected);
      }
      // Both paths are exercised: events passed on as they are, and events that needed a copy.
      expect(passedOn).toBeGreaterThan(0);
      if (known.length > 0) expect(passedOn).toBeLessThan(GENERATED_EVENTS);
    });
  }

  it("bounds the values visited as the two walks did", () => {
    const wide = Array.from({ length: MAX_REDACTION_NODES + 5 }, (_, index) => index);
    const event = { type: "run-summary", at: "t", telemetry: wide, error: `k ${KNOWN_SECRETS[0]}` };
    const { line } = lineOf(event, KNOWN_SECRETS);
    expect(line).toBe(twoWalks(event, KNOWN_SECRETS));
    expect(line).toContain(TRUNCATED);
  });

  it("redacts a known value in the event and the values of secret-named keys", () => {
    const event: SessionEvent = {
      type: "tool-result",
      at: "2026-01-01T00:00:00.000Z",
      callId: "c1",
      name: "login",
      isError: false,
      output: JSON.stringify({ echo: `your key is ${KNOWN_SECRETS[0]}`, token: "t-1234" }),
    };
    const { line } = lineOf(event, KNOWN_SECRETS);
    expect(line).not.toContain(KNOWN_SECRETS[0]);
    expect(line).not.toContain("t-1234");
    expect(JSON.parse(JSON.parse(line ?? "").output)).toEqual({
      echo: `your key is ${REDACTED}`,
      token: REDACTED,
    });
  });

  it("passes an event with nothing to redact on as it is, and its line is its JSON", () => {
    const event: SessionEvent = {
      type: "user-input",
      at: "t",
      items: [{ type: "message", role: "user", text: "hi" }],
    };
    const returned = redactSessionEvent(event, KNOWN_SECRETS);
    expect(returned).toBe(event);
    expect(takeRedactedLine(returned)).toBe(JSON.stringify(event));
    // Taken once: a second append of the same object is redacted afresh.
    expect(takeRedactedLine(returned)).toBeUndefined();
  });

  it("uses secrets added to the run's set after earlier events", () => {
    const secrets = new Set<string>(["first-secret"]);
    const event = (text: string): SessionEvent => ({
      type: "assistant-output",
      at: "t",
      items: [{ type: "message", role: "assistant", text }],
    });
    expect(takeRedactedLine(redactSessionEvent(event("first-secret second-secret"), secrets))).toContain(
      "second-secret",
    );
    secrets.add("second-secret");
    expect(takeRedactedLine(redactSessionEvent(event("second-secret"), secrets))).not.toContain(
      "second-secret",
    );
    // Same size, other contents: the new secret counts, the removed one no longer does.
    secrets.delete("first-secret");
    secrets.add("third-secret");
    const line = takeRedactedLine(redactSessionEvent(event("first-secret third-secret"), secrets));
    expect(line).toContain("first-secret");
    expect(line).not.toContain("third-secret");
  });

  it("keeps no line for an event that is not JSON-serialisable, so the store refuses it", () => {
    const event = { type: "run-summary", at: "t", telemetry: { big: 1n } } as unknown as SessionEvent;
    expect(takeRedactedLine(redactSessionEvent(event, KNOWN_SECRETS))).toBeUndefined();
  });
});

describe("redactSessionEvent through createFileSessionStore", () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "toolsift-redact-event-"));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("writes the same bytes as the store's own redaction of redactKnownValues' copy", async () => {
    const store = createFileSessionStore(join(root, "state"));
    const events = [...hostileEvents().map(({ event }) => event), ...generatedEvents(7).slice(0, 500)];
    const outcomes: Array<[string, string]> = [];
    for (const event of events) {
      const one = await store
        .append("main", "one-walk", redactSessionEvent(event as unknown as SessionEvent, KNOWN_SECRETS))
        .then(
          () => "written",
          (error: { code?: string }) => `refused ${error.code}`,
        );
      const two = await store
        .append("main", "two-walks", redactKnownValues(event as unknown as SessionEvent, KNOWN_SECRETS))
        .then(
          () => "written",
          (error: { code?: string }) => `refused ${error.code}`,
        );
      outcomes.push([one, two]);
    }
    for (const [one, two] of outcomes) expect(one).toBe(two);
    const path = (key: string) => join(root, "state", "agents", "main", "sessions", `${key}.jsonl`);
    expect(await readFile(path("one-walk"), "utf8")).toBe(await readFile(path("two-walks"), "utf8"));
  });

  it("writes the event as it was when redacted, even if it changes before the append", async () => {
    const store = createFileSessionStore(join(root, "state"));
    const event = { type: "user-input", at: "t", items: [{ type: "message", role: "user", text: "before" }] };
    const prepared = redactSessionEvent(event as SessionEvent, KNOWN_SECRETS);
    event.items[0] = { type: "message", role: "user", text: `after ${KNOWN_SECRETS[0]}` };
    await store.append("main", "fixed", prepared);
    const [written] = await store.read("main", "fixed");
    expect(written).toEqual({
      type: "user-input",
      at: "t",
      items: [{ type: "message", role: "user", text: "before" }],
    });
  });
});

describe("redactText shortcuts", () => {
  it("give what every pattern applied to every text gives, for every fragment pair and generated texts", () => {
    for (const left of TEXT_FRAGMENTS)
      for (const right of TEXT_FRAGMENTS)
        for (const glue of ["", " ", "="]) {
          const text = `${left}${glue}${right}`;
          expect(redactText(text), text).toBe(redactTextWithoutShortcuts(text));
        }
    const random = seededRandom(42);
    for (let index = 0; index < GENERATED_TEXTS; index += 1) {
      const text = generatedText(random);
      expect(redactText(text), text).toBe(redactTextWithoutShortcuts(text));
    }
  });
});

describe("parseJsonText", () => {
  it("skips the parse only of text JSON.parse would refuse", () => {
    const probes: Array<[string, boolean]> = [
      ["{ marker: string }", true],
      ["{marker: string}", true],
      ["[ a, b ]", true],
      ["{", true],
      ["[\n", true],
      ["{'a': 1}", true],
      ['{"a": 1}', false],
      [" \t\r\n{}", false],
      ["[]", false],
      ["[-1]", false],
      ["[true, false, null]", false],
      ['["a"]', false],
      ["[[{}]]", false],
      ["\u00a0{ x }", false],
      ["plain", false],
    ];
    for (const [text, refused] of probes) expect(surelyNotJson(text), text).toBe(refused);
    const random = seededRandom(9);
    const texts = [...TEXT_FRAGMENTS];
    for (let index = 0; index < 5_000; index += 1) {
      const json = JSON.stringify(generatedValue(random, 0, { plainOnly: true })) ?? "";
      const cut = Math.floor(random() * (json.length + 1));
      texts.push(json, json.slice(0, cut), `${json.slice(0, cut)} ${json.slice(cut)}`, generatedText(random));
    }
    let skipped = 0;
    for (const text of texts) {
      if (!surelyNotJson(text)) continue;
      skipped += 1;
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
    }
    expect(skipped).toBeGreaterThan(100);
  });

  it("parses a text once within the current synchronous work, and forgets it after", async () => {
    const text = JSON.stringify({ a: [1, 2], b: "c" });
    const first = parseJsonText(text);
    expect(first).toEqual({ parsed: { a: [1, 2], b: "c" } });
    expect(parseJsonText(text)).toBe(first);
    expect(parseJsonText("{not json")).toBeUndefined();
    await Promise.resolve();
    const later = parseJsonText(text);
    expect(later).toEqual(first);
    expect(later).not.toBe(first);
  });
});
