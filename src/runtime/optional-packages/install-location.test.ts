import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installLocation } from "./install-location.js";

let scratch = "";

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "toolsift-install-location-"));
  await mkdir(join(scratch, "project/node_modules/toolsift"), { recursive: true });
  await writeFile(join(scratch, "project/package.json"), "{}\n");
  await mkdir(join(scratch, "prefix/lib/node_modules/toolsift"), { recursive: true });
  await mkdir(join(scratch, ".npm/_npx/0a1b2c/node_modules/toolsift"), { recursive: true });
  await writeFile(join(scratch, ".npm/_npx/0a1b2c/package.json"), "{}\n");
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("installLocation: where a toolsift folder is installed", () => {
  it("a project's node_modules (the folder above has a package.json)", () => {
    expect(installLocation(join(scratch, "project/node_modules/toolsift"))).toEqual({
      kind: "project",
      root: join(scratch, "project"),
    });
  });

  it("a global prefix (no package.json above node_modules)", () => {
    expect(installLocation(join(scratch, "prefix/lib/node_modules/toolsift"))).toEqual({ kind: "global" });
  });

  it("npx's cache, though its folder has a package.json", () => {
    expect(installLocation(join(scratch, ".npm/_npx/0a1b2c/node_modules/toolsift"))).toEqual({ kind: "npx" });
  });

  it("not under node_modules: a checkout, this repository among them", () => {
    expect(installLocation(join(scratch, "clone"))).toEqual({
      kind: "checkout",
      root: join(scratch, "clone"),
    });
    expect(installLocation().kind).toBe("checkout");
  });
});
