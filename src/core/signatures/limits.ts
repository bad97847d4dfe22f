/** The bounds one signature is rendered within. */
export interface SignatureLimits {
  /** Most characters of the whole signature. */
  readonly maxChars: number;
  /** Most properties listed per object. */
  readonly maxProperties: number;
  /** Most nested object/array levels that are opened (the root object is level 1). */
  readonly maxDepth: number;
}

/** Input signatures: at most 300 characters, 16 properties per object, 4 levels. */
export const INPUT_SIGNATURE_LIMITS: SignatureLimits = Object.freeze({
  maxChars: 300,
  maxProperties: 16,
  maxDepth: 4,
});

/** Output signatures: at most 800 characters, 20 properties per object, 6 levels. */
export const OUTPUT_SIGNATURE_LIMITS: SignatureLimits = Object.freeze({
  maxChars: 800,
  maxProperties: 20,
  maxDepth: 6,
});

/** Most members of a union taken from one `enum`, `type` array, `anyOf`, `oneOf` or `allOf` list. */
export const MAX_UNION_MEMBERS = 8;

/** Most `required` names read from one object schema; a longer list counts as an omission. */
export const MAX_REQUIRED_NAMES = 1024;

/** Most schema nodes visited for one signature (bounds shared sub-schemas and nested unions). */
export const MAX_SIGNATURE_VISITS = 2000;

/** Most nested schema nodes followed on one path, including union members (bounds the recursion). */
export const MAX_SIGNATURE_NESTING = 32;
