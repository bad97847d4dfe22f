import { cutText } from "./cut-text.js";
import { LONGEST_SHOWN_VALUE } from "./limits.js";

/** A short, safe rendering of a received value for an error message (strings quoted and cut). */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return cutText(JSON.stringify(value), LONGEST_SHOWN_VALUE);
    case "number":
    case "boolean":
      return String(value);
    case "bigint":
      return `${value}n`;
    case "undefined":
      return "undefined";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      try {
        return Array.isArray(value) ? "an array" : "an object";
      } catch {
        return "an object";
      }
  }
}
