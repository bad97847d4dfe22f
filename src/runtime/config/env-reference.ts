/** Prefix of a string value read from the environment (`"env:NAME"`). */
const ENV_REFERENCE_PREFIX = "env:";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/u;

/** What a string value says about the environment. */
export type EnvReference =
  /** A plain string: not an `env:` reference. */
  | { kind: "none" }
  /** `"env:NAME"` with a valid variable name. */
  | { kind: "reference"; name: string }
  /** Starts with `env:` but the rest is not a variable name (`"env:my key"`, `"env:"`). */
  | { kind: "malformed" };

/** Classifies a string: only a whole `"env:NAME"` value is a reference (no interpolation inside strings). */
export function readEnvReference(value: string): EnvReference {
  if (!value.startsWith(ENV_REFERENCE_PREFIX)) return { kind: "none" };
  const name = value.slice(ENV_REFERENCE_PREFIX.length);
  return ENV_NAME.test(name) ? { kind: "reference", name } : { kind: "malformed" };
}

/** True when `value` is a well-formed `"env:NAME"` string. */
export function isEnvReference(value: unknown): boolean {
  return typeof value === "string" && readEnvReference(value).kind === "reference";
}
