import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** The fenced blocks of the README that carry `<!-- run: NAME -->` just above them. */
function runnableBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  const pattern = /<!-- run: ([\w-]+) -->\s*```(?:js|ts|javascript)\n([\s\S]*?)```/g;
  for (const match of readme.matchAll(pattern)) blocks.set(match[1] ?? "", match[2] ?? "");
  return blocks;
}

describe("README examples", () => {
  it("runs the library example against the built package", () => {
    const code = runnableBlocks().get("library-example");
    expect(code, "README must keep its library example").toBeDefined();
    // A module inside the package folder resolves "toolsift" to this package (self-reference via exports).
    const dir = mkdtempSync(join(root, ".readme-"));
    try {
      const file = join(dir, "example.mjs");
      writeFileSync(file, code ?? "");
      const output = execFileSync(process.execPath, [file], { cwd: root, encoding: "utf8" });
      expect(output).toContain("native:weather:get_forecast");
      expect(output).toContain("FORECAST Berlin");
      expect(output).toContain("### Deferred Tool Schemas");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the two setup commands", () => {
    expect(readme).toContain(
      'npx toolsift search "look up the price of bitcoin" --catalog examples/catalog.json',
    );
    expect(readme).toContain("npm test");
    expect(readFileSync(join(root, ".ci/run"), "utf8")).toContain("npm test");
  });
});
