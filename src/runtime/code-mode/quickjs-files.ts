import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolsiftError } from "../../shared/errors/index.js";

/** Where the child loads QuickJS from: the ES module URLs it imports and the package folders it may read. */
export interface QuickJsFiles {
  /** File URL of quickjs-emscripten-core's ES module entry. */
  coreUrl: string;
  /** File URL of the release-sync WASM variant's ES module entry (the WASM file sits beside it). */
  variantUrl: string;
  /** The package folders the child is granted read access to, and nothing else. */
  readPaths: string[];
}

const VARIANT_PACKAGE = "@jitl/quickjs-wasmfile-release-sync";

let cached: QuickJsFiles | undefined;

/**
 * Finds the QuickJS packages the child needs, resolved from the `quickjs-emscripten` dependency (so only its
 * own dependencies are used): the core, the release-sync variant and the FFI types they share. Throws a
 * ToolsiftError (SANDBOX_UNAVAILABLE is reported by callers) when a package cannot be found.
 */
export function quickJsFiles(): QuickJsFiles {
  if (cached) return cached;
  const fromHere = createRequire(import.meta.url);
  const metaPackage = packageFolder(fromHere, "quickjs-emscripten");
  const fromMeta = createRequire(join(metaPackage, "package.json"));
  const corePackage = packageFolder(fromMeta, "quickjs-emscripten-core");
  const variantPackage = packageFolder(fromMeta, VARIANT_PACKAGE);
  const typesPackage = packageFolder(
    createRequire(join(variantPackage, "package.json")),
    "@jitl/quickjs-ffi-types",
  );
  cached = {
    coreUrl: pathToFileURL(join(corePackage, importEntry(corePackage))).href,
    variantUrl: pathToFileURL(join(variantPackage, importEntry(variantPackage))).href,
    readPaths: [corePackage, variantPackage, typesPackage],
  };
  return cached;
}

/** The folder of an installed package, found through its CommonJS entry and the nearest package.json. */
function packageFolder(require: NodeJS.Require, name: string): string {
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new ToolsiftError(
      "INTERNAL",
      `Code Mode needs the package "${name}" (a dependency of quickjs-emscripten); reinstall toolsift's dependencies with npm install.`,
    );
  }
  let folder = dirname(entry);
  for (;;) {
    const manifest = readManifest(folder);
    if (manifest?.name === name) return folder;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  throw new ToolsiftError("INTERNAL", `Code Mode could not find the folder of package "${name}".`);
}

/** The ES module entry of a package, from its `exports["."].import`. */
function importEntry(folder: string): string {
  const manifest = readManifest(folder);
  const root = manifest?.exports?.["."];
  const entry = typeof root === "object" && root !== null ? root.import : undefined;
  if (typeof entry !== "string") {
    throw new ToolsiftError("INTERNAL", `Code Mode could not find the ES module entry of "${folder}".`);
  }
  return entry;
}

interface Manifest {
  name?: string;
  exports?: Record<string, { import?: unknown } | string | null>;
}

function readManifest(folder: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}
