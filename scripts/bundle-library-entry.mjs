// Post-build step of `npm run build`, after tsc: writes over tsc's `dist/index.js` (the package's "." export)
// one ES module bundled from `src/index.ts` by esbuild, so `import("toolsift")` loads two files instead of
// about 125. Code splitting keeps dynamic imports lazy (chunks in `dist/index-chunks/`), npm
// packages stay external (but lru-cache, bundled in), tsc's other files and `.d.ts` stay as emitted. Why, the invariants and the
// figures: scripts/DESIGN.md.
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Shared and lazy chunks of the bundle, removed before each build so no stale chunk ships. */
const CHUNK_FOLDER = "index-chunks";
/**
 * Packages bundled in rather than loaded from node_modules: the core's one LRU library, small and needed at
 * load (the caches are built when the library loads). Every other package stays external and lazy.
 */
const BUNDLED_PACKAGES = new Set(["lru-cache"]);
const { dependencies, peerDependencies } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
);
// Optional peers (the provider clients, the OpenTelemetry SDK) are never bundled in either.
const external = Object.keys({ ...dependencies, ...peerDependencies })
  .filter((name) => !BUNDLED_PACKAGES.has(name))
  .flatMap((name) => [name, `${name}/*`]);

rmSync(new URL(`../dist/${CHUNK_FOLDER}`, import.meta.url), { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: { index: "src/index.ts" },
  outdir: "dist",
  chunkNames: `${CHUNK_FOLDER}/[name]-[hash]`,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  tsconfig: "tsconfig.build.json",
  // No source maps: the package ships no src/, so a map would point at files the user does not have
  // (tsconfig.build.json turns tsc's maps off for the same reason).
  sourcemap: false,
  logLevel: "warning",
});
