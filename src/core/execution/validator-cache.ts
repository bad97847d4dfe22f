import { createRequire } from "node:module";
import type { Ajv, Options, ValidateFunction } from "ajv";
import { LRUCache } from "lru-cache";
import { schemaKey } from "../../shared/schema/index.js";
import { cloneSchema, UncloneableSchema } from "./clone-schema.js";
import { MAX_CACHED_VALIDATORS, MAX_SHARED_VALIDATORS } from "./limits.js";
import { thrownMessage } from "./thrown-message.js";

/** A compiled schema, or why it could not be compiled (a sentence fragment: "type must be ..."). */
export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; reason: string };

/** Compiled JSON Schema validators, keyed by schema content. */
export interface ValidatorCache {
  /** The validator for `schema`'s current content; compiled on first use, again after an in-place change. */
  compile(schema: unknown): CompiledSchema;
  /** How many compiled schemas (and compile failures) are kept. */
  readonly size: number;
}

type Dialect = "draft-07" | "2019-09" | "2020-12";

const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: true,
  verbose: true,
  addUsedSchema: false,
  logger: false,
};

/**
 * ajv and ajv-formats (CommonJS, about 100 modules) are loaded on the first compile, synchronously, not when
 * the library is imported: `import("toolsift")` and CLI commands that never validate a call do not pay for
 * them (`npm run bench -- startup`).
 */
const load = createRequire(import.meta.url);

type AjvClass = new (options: Options) => Ajv;

function ajvClass(dialect: Dialect): AjvClass {
  if (dialect === "2020-12") return (load("ajv/dist/2020.js") as { Ajv2020: AjvClass }).Ajv2020;
  if (dialect === "2019-09") return (load("ajv/dist/2019.js") as { Ajv2019: AjvClass }).Ajv2019;
  return (load("ajv") as { Ajv: AjvClass }).Ajv;
}

function addFormats(ajv: Ajv): void {
  const plugin = load("ajv-formats") as { default?: (ajv: Ajv) => Ajv } & ((ajv: Ajv) => Ajv);
  (plugin.default ?? plugin)(ajv);
}

/** Picks the ajv class from `$schema`; unknown or older dialects are compiled as draft-07 without `$schema`. */
function dialectOf(schema: unknown): Dialect {
  if (typeof schema !== "object" || schema === null) return "draft-07";
  const declared = (schema as Record<string, unknown>).$schema;
  if (typeof declared !== "string") return "draft-07";
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("2019-09")) return "2019-09";
  if (!declared.includes("draft-07")) delete (schema as Record<string, unknown>).$schema;
  return "draft-07";
}

/**
 * The process-wide ajv of each dialect: building one compiles its meta-schema, the dearest step of all. A
 * fixed set of three compilers (no schema is left registered in them), not a cache of anything a run hands in.
 */
const instances: Partial<Record<Dialect, Ajv>> = {};

function ajvFor(dialect: Dialect): Ajv {
  let instance = instances[dialect];
  if (!instance) {
    instance = new (ajvClass(dialect))(AJV_OPTIONS);
    addFormats(instance);
    instances[dialect] = instance;
  }
  return instance;
}

/**
 * A validator cache of its own, holding at most `limit` (default MAX_CACHED_VALIDATORS) entries, least
 * recently used first out. Keys are `schemaKey(schema)`, so equal content shares one validator and an
 * in-place edit is compiled afresh. Schemas are copied before compiling (see cloneSchema); ajv (one
 * process-wide instance per dialect, schemas removed from it after compiling) runs with `strict: false`,
 * `allErrors`, the standard formats checked (ajv-formats), unknown formats ignored.
 */
export function createValidatorCache(limit: number = MAX_CACHED_VALIDATORS): ValidatorCache {
  const compiled = new LRUCache<string, CompiledSchema>({ max: Math.max(1, Math.floor(limit)) });

  const build = (schema: unknown): CompiledSchema => {
    let copy: unknown;
    try {
      copy = cloneSchema(schema);
    } catch (error) {
      const reason = error instanceof UncloneableSchema ? error.message : "could not be read";
      return { ok: false, reason: `the schema ${reason}` };
    }
    if (typeof copy !== "boolean" && (typeof copy !== "object" || copy === null || Array.isArray(copy))) {
      return { ok: false, reason: "the schema is not an object or a boolean" };
    }
    const ajv = ajvFor(dialectOf(copy));
    try {
      return { ok: true, validate: ajv.compile(copy) };
    } catch (error) {
      return { ok: false, reason: thrownMessage(error) };
    } finally {
      try {
        ajv.removeSchema(copy);
      } catch {
        // Nothing was registered; there is nothing to release.
      }
    }
  };

  return {
    compile(schema) {
      let key: string;
      try {
        key = schemaKey(schema);
      } catch {
        return { ok: false, reason: "the schema could not be read" };
      }
      const cached = compiled.get(key);
      if (cached) return cached;
      const result = build(schema);
      compiled.set(key, result);
      return result;
    },
    get size() {
      return compiled.size;
    },
  };
}

let shared: ValidatorCache | undefined;

/**
 * The library's own cache, for executors handed none (MAX_SHARED_VALIDATORS entries): a validator depends on
 * the schema's content alone, so runs and catalogs with the same schemas share one compiled validator instead
 * of compiling it again per run. A validator's `errors` are read right after the call that set them.
 */
export function sharedValidatorCache(): ValidatorCache {
  shared ??= createValidatorCache(MAX_SHARED_VALIDATORS);
  return shared;
}
