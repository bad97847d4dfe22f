/**
 * The text to show for a caught value: an Error's `message`, anything else through `String`. For values from
 * trusted code (Node, our own modules); read what a tool, hook or plugin threw with a never-throwing reader.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
