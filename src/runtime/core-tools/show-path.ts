import { cutText } from "../../shared/text/index.js";
import { MAX_SHOWN_PATH_CHARS } from "./limits.js";

/** A requested path as messages quote it: JSON-quoted (so NUL and newlines show escaped) and cut. */
export function showPath(requested: unknown): string {
  return JSON.stringify(
    cutText(typeof requested === "string" ? requested : String(requested), MAX_SHOWN_PATH_CHARS),
  );
}
