import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { MAX_MANIFEST_BYTES, MAX_PLUGIN_TOOLS } from "./limits.js";
import { pluginMessage } from "./plugin-message.js";
import { compilePluginSchema, describeSchemaErrors } from "./plugin-schema-validator.js";
import type { PluginManifest } from "./types.js";

/** Owners reserved for other tool origins; no plugin may take them. */
const RESERVED_PLUGIN_IDS: ReadonlySet<string> = new Set(["core", "client"]);

/** Allowed plugin ids: a letter or digit, then up to 63 of `A-Z a-z 0-9 . _ -` (no `:`: ids go into tool ids). */
const PLUGIN_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$";

/** The entry module when the manifest has no `main`. */
const DEFAULT_PLUGIN_MAIN = "index.js";

/** The manifest file that makes a folder a plugin. */
export const PLUGIN_MANIFEST_FILE = "toolsift.plugin.json";

/** The shape of `toolsift.plugin.json`; unknown extra fields (description, author, …) are allowed. */
const MANIFEST_SCHEMA = {
  type: "object",
  required: ["id", "name", "version"],
  properties: {
    id: { type: "string", pattern: PLUGIN_ID_PATTERN },
    name: { type: "string", minLength: 1, maxLength: 200 },
    version: { type: "string", minLength: 1, maxLength: 100 },
    main: { type: "string", minLength: 1, maxLength: 1_000 },
    tools: {
      type: "array",
      maxItems: MAX_PLUGIN_TOOLS,
      uniqueItems: true,
      items: { type: "string", minLength: 1, maxLength: 200 },
    },
    configSchema: { type: ["object", "boolean"] },
  },
};

const compiled = compilePluginSchema(MANIFEST_SCHEMA);

/** A manifest, or the reason it is unusable (a sentence naming the file and the fix). */
export type ManifestResult = { ok: true; manifest: PluginManifest } | { ok: false; message: string };

/**
 * Reads and validates `<dir>/toolsift.plugin.json`: JSON, at most MAX_MANIFEST_BYTES, `id` (PLUGIN_ID_PATTERN,
 * not `core` or `client`), `name`, `version` required; `main` defaults to `index.js`, `tools` to `[]`.
 * Never throws.
 */
export async function readPluginManifest(dir: string): Promise<ManifestResult> {
  const file = join(dir, PLUGIN_MANIFEST_FILE);
  let text: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) return { ok: false, message: `${file} is not a file.` };
    if (info.size > MAX_MANIFEST_BYTES) {
      return {
        ok: false,
        message: `${file} is larger than ${MAX_MANIFEST_BYTES} bytes; a manifest only lists the plugin's id, name, version, main, tools and configSchema.`,
      };
    }
    text = await readFile(file, "utf8");
  } catch (error) {
    return { ok: false, message: `Cannot read ${file}: ${pluginMessage(error)}.` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${file} is not valid JSON (${pluginMessage(error)}); fix the file.` };
  }
  if (!compiled.ok)
    return {
      ok: false,
      message: `Internal error: the manifest schema does not compile (${compiled.reason}).`,
    };
  // The validator may fill defaults in: validate a copy so the parsed value stays as read.
  if (!compiled.validate(structuredClone(value))) {
    return {
      ok: false,
      message: `${file} is invalid: ${describeSchemaErrors(compiled.validate.errors, "")}. Required: "id" (letters, digits, ".", "_", "-"), "name", "version"; optional: "main", "tools", "configSchema".`,
    };
  }
  const raw = value as Record<string, unknown>;
  const id = raw.id as string;
  if (RESERVED_PLUGIN_IDS.has(id)) {
    return {
      ok: false,
      message: `${file}: the id "${id}" is reserved for toolsift's own tools; choose another id.`,
    };
  }
  const manifest: PluginManifest = {
    id,
    name: raw.name as string,
    version: raw.version as string,
    main: typeof raw.main === "string" ? raw.main : DEFAULT_PLUGIN_MAIN,
    tools: Array.isArray(raw.tools) ? [...(raw.tools as string[])] : [],
  };
  if (raw.configSchema !== undefined) manifest.configSchema = raw.configSchema;
  return { ok: true, manifest };
}
