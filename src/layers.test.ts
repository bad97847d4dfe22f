import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** The layers, innermost first: a file may import from its own layer and the ones before it (ARCHITECTURE.md). */
const LAYERS = ["shared", "core", "runtime", "dev", "front-doors"] as const;
/** Modules that touch the disk, the network or other processes: the core and the shared pieces stay free of them. */
const IO_MODULES = /^node:(fs|fs\/promises|child_process|http|https|http2|dgram|worker_threads|readline)$/;
const SRC = dirname(fileURLToPath(import.meta.url));

type Source = { file: string; layer: string; folder: string; imports: string[] };

function sources(): Source[] {
  const found: Source[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.test(-support)?\.ts$/.test(entry.name)) {
        const [layer, folder] = relative(SRC, path).split(sep);
        if (layer === undefined || folder === undefined) continue;
        const text = readFileSync(path, "utf8");
        const imports = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
        found.push({ file: relative(SRC, path), layer, folder, imports });
      }
    }
  };
  for (const layer of LAYERS) walk(join(SRC, layer));
  return found;
}

/** The layer and folder a relative import from `file` lands in, or undefined for a package or node module. */
function target(file: string, spec: string): { layer: string; folder: string } | undefined {
  if (!spec.startsWith(".")) return undefined;
  const [layer, folder] = relative(SRC, join(SRC, dirname(file), spec)).split(sep);
  return layer === undefined || folder === undefined ? undefined : { layer, folder };
}

describe("source layers", () => {
  const all = sources();

  it("finds the source files of every layer", () => {
    for (const layer of LAYERS) expect(all.some((s) => s.layer === layer)).toBe(true);
  });

  it("lets every file import only from its own layer and the layers inside it", () => {
    const outward: string[] = [];
    for (const source of all) {
      for (const spec of source.imports) {
        const to = target(source.file, spec);
        if (to === undefined) continue;
        const from = LAYERS.indexOf(source.layer as (typeof LAYERS)[number]);
        const into = LAYERS.indexOf(to.layer as (typeof LAYERS)[number]);
        if (into < 0 || into > from) outward.push(`${source.file} imports ${spec}`);
      }
    }
    expect(outward).toEqual([]);
  });

  it("keeps the core and the shared pieces free of disk, network and process I/O", () => {
    const io = all
      .filter((s) => s.layer === "core" || s.layer === "shared")
      .flatMap((s) =>
        s.imports.filter((spec) => IO_MODULES.test(spec)).map((spec) => `${s.file} imports ${spec}`),
      );
    expect(io).toEqual([]);
  });

  it("has no import cycle between folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const source of all) {
      const from = `${source.layer}/${source.folder}`;
      for (const spec of source.imports) {
        const to = target(source.file, spec);
        if (to === undefined) continue;
        const into = `${to.layer}/${to.folder}`;
        if (into !== from) edges.set(from, (edges.get(from) ?? new Set()).add(into));
      }
    }
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (node: string, path: string[]): void => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "open") {
        cycles.push([...path.slice(path.indexOf(node)), node].join(" -> "));
        return;
      }
      state.set(node, "open");
      for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, "done");
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});
