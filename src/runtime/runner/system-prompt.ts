/**
 * The system prompt: a stable prefix (base instructions, then the directory under its own heading) and,
 * after it, the client's per-request instructions. The prefix is byte-identical across turns while the
 * catalog is unchanged, so provider prompt caches keep hitting.
 */
export function buildSystemPrompt(options: {
  baseInstructions: string;
  directory: string | undefined;
  clientInstructions: string | undefined;
}): string {
  const parts = [options.baseInstructions.trim()];
  if (options.directory) parts.push(options.directory);
  if (options.clientInstructions?.trim()) parts.push(options.clientInstructions.trim());
  return parts.join("\n\n");
}
