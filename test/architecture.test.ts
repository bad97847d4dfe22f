import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TEXT = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
const LAYERS = ["shared", "core", "runtime", "dev", "front-doors"];

describe("ARCHITECTURE.md matches the tree", () => {
  it("names only paths that exist", () => {
    const named = [...TEXT.matchAll(/`(src\/[^`\s]+)`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it("lists every folder of every layer in its layer's line", () => {
    const missing: string[] = [];
    for (const layer of LAYERS) {
      const line = TEXT.split("\n## ")[1]?.match(
        new RegExp(`\`src/${layer}/\`:([\\s\\S]*?)(?=\\n\\d\\.|\\n\\n|$)`),
      );
      const folders = readdirSync(join(ROOT, "src", layer), { withFileTypes: true }).filter((e) =>
        e.isDirectory(),
      );
      for (const folder of folders)
        if (!line?.[1]?.includes(folder.name)) missing.push(`src/${layer}/${folder.name}`);
    }
    expect(missing).toEqual([]);
  });

  it("the README's layer map lists every folder", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const missing = LAYERS.flatMap((layer) =>
      readdirSync(join(ROOT, "src", layer), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !readme.includes(`  - \`${entry.name}\`:`))
        .map((entry) => `src/${layer}/${entry.name}`),
    );
    expect(missing).toEqual([]);
  });
});
