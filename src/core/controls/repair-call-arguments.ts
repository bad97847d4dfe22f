import { isObjectRecord, safeRead } from "../../shared/schema/index.js";
import type { CatalogEntry, CatalogSnapshot } from "../catalog/index.js";
import { invalidRequest as invalid } from "./invalid-request.js";

/** A record without a prototype: any key, `__proto__` included, is an own data property. */
type BareRecord = Record<string, unknown>;

/** Keys that may select the target in a flattened call. */
const SELECTOR_KEYS = ["id", "toolId", "name"] as const;
const DOTTED_PREFIX = "args.";
/** Keys a weak model wraps a whole call in (`{ args: { id, args } }`, `{ input: { id, args } }`). */
const WRAPPER_KEYS = ["args", "input"] as const;
/**
 * Other names weak models give the target's arguments (`{ "id": "x", "arguments": { ... } }`): read as the
 * nested wrapper, like `args`, when neither `args` nor `input` holds the arguments and the target's schema has
 * no property of that name.
 */
const ALIAS_WRAPPER_KEYS = ["arguments", "parameters"] as const;
/** The form shown when `args` cannot be read as the target's arguments. */
const ARGS_FORM =
  'args must be an object holding the target tool\'s arguments by name, e.g. { "id": "<tool id>", "args": { "city": "Oslo" } }.';

/** Message for a `tool_call` request that is not an object at all. */
export const CALL_REQUEST_NOT_OBJECT =
  'tool_call arguments must be an object: { "id": "<tool id or unique name>", "args": { ... } }.';

/**
 * Normalises `tool_call` arguments from weak and local models into the target selector and the target's
 * arguments (DESIGN.md, "`tool_call` and argument repair"): a double-wrapped payload (in `args` or `input`) is hoisted one level, and refused beside a malformed outer `id`; a selector key (`id`,
 * `toolId`, `name`) is consumed only when its value exactly names a catalog entry (else it stays a target
 * argument), falling back to `id`; target arguments merge dotted `args.x` keys < flat keys < nested `args`
 * (or `input`, else `arguments` / `parameters` when the target's schema has no such property), per field;
 * `args` (or an alias) given as JSON text of an object is parsed; `args: null` and `input: null` are ignored. `__proto__` keys stay own data properties and never touch a prototype.
 * Throws ToolsiftError INVALID_REQUEST with the spec's messages.
 */
export function repairCallArguments(
  raw: unknown,
  snapshot: CatalogSnapshot,
): { selector: string; args: Record<string, unknown> } {
  if (!isObjectRecord(raw)) throw invalid(CALL_REQUEST_NOT_OBJECT);
  let top = copyRecord(raw);
  if (!hasSelector(top, snapshot)) {
    for (const wrapper of [...WRAPPER_KEYS, ...ALIAS_WRAPPER_KEYS]) {
      if (!isObjectRecord(top[wrapper])) continue;
      const inner = copyRecord(top[wrapper] as object);
      if (!hasSelector(inner, snapshot)) continue;
      // A malformed outer id beside a wrapped selector is refused: the model meant something, unclear what.
      if (top.id !== undefined && top.id !== null) throw invalid("id must be a non-empty string.");
      const hoisted = bareRecord();
      for (const key of Object.keys(top)) if (key !== wrapper) hoisted[key] = top[key];
      top = Object.assign(hoisted, inner);
      break;
    }
  }

  const { selector, consumedKeys } = chooseSelector(top, snapshot);
  if (typeof top.args === "string") top.args = parseObjectText(top.args);
  if (top.args !== undefined && top.args !== null && !isObjectRecord(top.args)) throw invalid(ARGS_FORM);
  const nestedArgs = nonEmptyRecord(top.args);
  const nestedInput = nestedArgs ? undefined : nonEmptyRecord(top.input);
  let nested = nestedArgs ?? nestedInput;
  if (nested === undefined && !isObjectRecord(top.input)) {
    const alias = aliasWrapper(top, uniqueEntry(snapshot, selector));
    if (alias) {
      consumedKeys.add(alias.key);
      nested = alias.args;
    }
  }

  const merged = bareRecord();
  for (const key of Object.keys(top)) {
    if (key.startsWith(DOTTED_PREFIX) && key.length > DOTTED_PREFIX.length) {
      merged[key.slice(DOTTED_PREFIX.length)] = top[key];
    }
  }
  for (const key of Object.keys(top)) {
    if (consumedKeys.has(key) || key === "args" || key.startsWith(DOTTED_PREFIX)) continue;
    if (key === "input" && (top.input === null || (isObjectRecord(top.input) && nestedArgs === undefined)))
      continue;
    merged[key] = top[key];
  }
  if (nested) Object.assign(merged, nested);
  return { selector, args: toPlainObject(merged) };
}

function chooseSelector(
  top: BareRecord,
  snapshot: CatalogSnapshot,
): { selector: string; consumedKeys: Set<string> } {
  const consumed: Array<{ key: string; value: string; entries: readonly CatalogEntry[] }> = [];
  for (const key of SELECTOR_KEYS) {
    const value = top[key];
    if (typeof value !== "string") continue;
    const entries = entriesNamed(snapshot, value);
    if (entries.length > 0) consumed.push({ key, value, entries });
  }
  const first = consumed[0];
  if (!first) {
    const id = top.id;
    if (typeof id !== "string" || id.trim() === "") throw invalid("id must be a non-empty string.");
    return { selector: id, consumedKeys: new Set(["id"]) };
  }
  let common: readonly CatalogEntry[] = first.entries;
  for (const selector of consumed.slice(1))
    common = common.filter((entry) => selector.entries.includes(entry));
  if (common.length === 0) {
    throw invalid("Ambiguous tool selectors: pass the target tool id and nest target arguments under args.");
  }
  const selector = common.length === 1 && common[0] ? common[0].id : first.value;
  return { selector, consumedKeys: new Set(consumed.map((item) => item.key)) };
}

/**
 * The first of `arguments` / `parameters` that holds an object (or JSON text of one) and that the target's
 * schema does not declare as a property. The schema is probed for that one key only, through guarded reads;
 * without a resolved target (unknown or ambiguous), nothing is unwrapped.
 */
function aliasWrapper(
  top: BareRecord,
  entry: CatalogEntry | undefined,
): { key: string; args: BareRecord } | undefined {
  if (!entry) return undefined;
  for (const key of ALIAS_WRAPPER_KEYS) {
    let value = top[key];
    if (typeof value === "string") value = parseObjectTextOrUndefined(value);
    if (!isObjectRecord(value) || declaresProperty(entry.parameters, key)) continue;
    return { key, args: copyRecord(value) };
  }
  return undefined;
}

/** Whether a schema declares `key` under `properties`; unreadable counts as declared (nothing is unwrapped). */
function declaresProperty(schema: unknown, key: string): boolean {
  const properties = safeRead(schema, "properties");
  if (properties === undefined || properties === null) return false;
  if (typeof properties !== "object") return false;
  try {
    return Object.hasOwn(properties, key);
  } catch {
    return true;
  }
}

function uniqueEntry(snapshot: CatalogSnapshot, selector: string): CatalogEntry | undefined {
  const entries = entriesNamed(snapshot, selector);
  return entries.length === 1 ? entries[0] : undefined;
}

/** `args` sent as JSON text: the object it holds, else INVALID_REQUEST with the right form. */
function parseObjectText(text: string): BareRecord {
  const parsed = parseObjectTextOrUndefined(text);
  if (parsed === undefined) throw invalid(ARGS_FORM);
  return parsed;
}

function parseObjectTextOrUndefined(text: string): BareRecord | undefined {
  if (!text.trimStart().startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObjectRecord(parsed) ? copyRecord(parsed) : undefined;
  } catch {
    return undefined;
  }
}

function hasSelector(record: BareRecord, snapshot: CatalogSnapshot): boolean {
  if (typeof record.id === "string" && record.id.trim() !== "") return true;
  return SELECTOR_KEYS.some((key) => {
    const value = record[key];
    return typeof value === "string" && entriesNamed(snapshot, value).length > 0;
  });
}

function entriesNamed(snapshot: CatalogSnapshot, value: string): readonly CatalogEntry[] {
  const byId = snapshot.get(value);
  return byId ? [byId] : snapshot.withName(value);
}

function nonEmptyRecord(value: unknown): BareRecord | undefined {
  if (!isObjectRecord(value)) return undefined;
  const copy = copyRecord(value);
  return Object.keys(copy).length > 0 ? copy : undefined;
}

function bareRecord(): BareRecord {
  return Object.create(null) as BareRecord;
}

/** Own enumerable string keys of an untrusted object, copied into a bare record; unreadable → INVALID_REQUEST. */
function copyRecord(value: object): BareRecord {
  const copy = bareRecord();
  try {
    for (const key of Object.keys(value)) copy[key] = (value as BareRecord)[key];
  } catch {
    throw invalid("tool_call arguments could not be read: pass plain JSON data.");
  }
  return copy;
}

/** A plain object (ordinary prototype) with the same own data properties, `__proto__` included. */
function toPlainObject(record: BareRecord): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    Object.defineProperty(plain, key, {
      value: record[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return plain;
}
