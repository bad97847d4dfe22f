import { knownSecretForms, redactKnownValues } from "./redact-known-values.js";
import { needsNoRedaction, redactedJson } from "./redact-secrets.js";
import type { SessionEvent } from "./types.js";

/**
 * Lines made by redactSessionEvent, by the event object it returned; createFileSessionStore takes each once
 * (takeRedactedLine) instead of walking the event again. Weak: an event never appended leaves nothing behind.
 */
const redactedLines = new WeakMap<object, string>();

/** The forms last made for a collection of known secrets (a run's Set), with the secrets they were made of. */
const formsByKnown = new WeakMap<object, { secrets: string[]; forms: string[] }>();

/**
 * The secrets in `known` and their knownSecretForms. A run appends each event with the same Set of secrets,
 * which grows now and then: its forms are made again only when its contents differ from the last time.
 */
function formsOf(known: Iterable<string>): { secrets: string[]; forms: string[] } {
  const secrets = [...known];
  if (typeof known !== "object" || known === null) return { secrets, forms: knownSecretForms(secrets) };
  const last = formsByKnown.get(known);
  if (last !== undefined && sameStrings(last.secrets, secrets)) return last;
  const made = { secrets, forms: knownSecretForms(secrets) };
  formsByKnown.set(known, made);
  return made;
}

function sameStrings(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return false;
  return true;
}

/**
 * `event` with the run's `known` secrets redacted wherever they appear as text, exactly as
 * redactKnownValues(event, known) gives it: what a runner hands to SessionStore.append, whatever the store.
 * It also makes the event's log line (the JSON of redactSecrets of that copy, the bytes
 * createFileSessionStore would write for it) in one walk for both redactions when nothing needs redacting,
 * the common case, and leaves it for the file store to write as it is. The line is fixed now: append the
 * returned event at once (a change made to it before the append is not written, and never unredacted).
 */
export function redactSessionEvent<T extends SessionEvent>(event: T, known: Iterable<string>): T {
  const { secrets, forms } = formsOf(known);
  if (typeof event !== "object" || event === null) return redactKnownValues(event, secrets);
  let redacted = event;
  let line: string | undefined;
  try {
    if (needsNoRedaction(event, forms)) line = JSON.stringify(event);
    else {
      // Something to redact: the two steps this walk stands for, each as it always was.
      redacted = redactKnownValues(event, secrets);
      line = redactedJson(redacted);
    }
  } catch {
    // Not JSON-serialisable: no line is kept, so the store refuses the event when it is appended.
    return redacted;
  }
  if (line !== undefined && typeof redacted === "object" && redacted !== null)
    redactedLines.set(redacted, line);
  return redacted;
}

/**
 * The line redactSessionEvent made for this very event object, once (a second append of it is redacted
 * afresh); undefined for any other event.
 */
export function takeRedactedLine(event: object): string | undefined {
  const line = redactedLines.get(event);
  if (line !== undefined) redactedLines.delete(event);
  return line;
}
