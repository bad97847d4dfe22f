// Loader-thread half of startup-trace.mjs: records every resolved module (not builtins) with its importer.
import { appendFileSync } from "node:fs";

let file = "";

/** Receives the trace file from `register(…, { data })`. */
export function initialize(data) {
  file = data.file;
}

/** Resolves as Node would, then appends `{ kind: "esm", url, parent }` to the trace file. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.startsWith("file:")) {
    const line = { kind: "esm", url: resolved.url, parent: context.parentURL ?? null };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
  return resolved;
}
