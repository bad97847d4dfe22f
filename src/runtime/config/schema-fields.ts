import { isIP } from "node:net";
import * as z from "zod";
import { isEnvReference } from "./env-reference.js";

/** Ids of providers, agents, MCP servers and plugin entries: safe as a path segment and in `provider/model`. */
export const CONFIG_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/u;
/** The message for a value or key that is not an id. */
export const CONFIG_ID_MESSAGE =
  'expected an id of letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/u;
const HOST_NAME =
  /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/u;

/** Any string, `""` included. */
export function text() {
  return z.string({ error: "expected a string" });
}

/** A string with at least one character. */
export function nonEmptyText() {
  return z.string({ error: "expected a string" }).min(1, { error: "expected a non-empty string" });
}

/** A list of non-empty strings. */
export function textList() {
  return z.array(nonEmptyText(), { error: "expected a list of strings" });
}

/** `true` or `false`. */
export function flag() {
  return z.boolean({ error: "expected true or false" });
}

/** An integer in `min..max`, with one message for every way to miss it. */
export function integerBetween(min: number, max: number) {
  const error = `expected an integer between ${min} and ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** One of `values`, reported as `expected "a" | "b"`. */
export function oneOf<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, { error: `expected ${values.map((value) => JSON.stringify(value)).join(" | ")}` });
}

/** An id (see {@link CONFIG_ID_PATTERN}). */
export function configId() {
  return z.string({ error: "expected a string" }).regex(CONFIG_ID_PATTERN, { error: CONFIG_ID_MESSAGE });
}

/** An `http://` or `https://` URL, or an `env:NAME` reference (checked once resolved). */
export function httpUrl() {
  return nonEmptyText().refine((value) => isEnvReference(value) || isHttpUrl(value), {
    error: "expected an http:// or https:// URL",
  });
}

/** True for a parsable URL whose scheme is `postgresql:` or `postgres:`. */
export function isPostgresUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const protocol = new URL(value).protocol;
  return protocol === "postgresql:" || protocol === "postgres:";
}

/** An address to bind: an IP address or a host name, or an `env:NAME` reference. */
export function bindAddress() {
  return nonEmptyText().refine(
    (value) => isEnvReference(value) || isIP(value) !== 0 || HOST_NAME.test(value),
    { error: 'expected an IP address or host name, e.g. "127.0.0.1"' },
  );
}

/** A `provider/model` reference (a bare model id means an OpenAI model), or an `env:NAME` reference. */
export function modelReference() {
  return nonEmptyText().refine((value) => isEnvReference(value) || isModelReference(value), {
    error: 'expected "provider/model", e.g. "openai/gpt-5.4-mini"',
  });
}

/** HTTP headers: token names to string values. */
export function headerMap() {
  return z.record(
    z.string().regex(HEADER_NAME, { error: "expected an HTTP header name (letters, digits, -)" }),
    text(),
    { error: "expected an object of header names to strings" },
  );
}

/** Environment variables for a child process: names to string values. */
export function environmentMap() {
  return z.record(z.string().regex(/^[^=\0]+$/u, { error: 'expected a variable name without "="' }), text(), {
    error: "expected an object of variable names to strings",
  });
}

/** A map keyed by ids (see {@link configId}). */
export function idMap<Value extends z.ZodType>(value: Value) {
  return z.record(z.string().regex(CONFIG_ID_PATTERN, { error: CONFIG_ID_MESSAGE }), value, {
    error: "expected an object keyed by id",
  });
}

/** An object with exactly these optional keys; any other key is reported with the list of known ones. */
export function section<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = listKeys(Object.keys(shape));
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown key (expected ${known})` : "expected an object",
  });
}

/** True for `provider/model` with a valid provider id, or a bare model id; never whitespace. */
export function isModelReference(value: string): boolean {
  if (value.length === 0 || /\s/u.test(value)) return false;
  const slash = value.indexOf("/");
  if (slash === -1) return true;
  return CONFIG_ID_PATTERN.test(value.slice(0, slash)) && value.length > slash + 1;
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

function listKeys(keys: readonly string[]): string {
  if (keys.length <= 1) return keys.join("");
  return `${keys.slice(0, -1).join(", ")} or ${keys.at(-1)}`;
}
