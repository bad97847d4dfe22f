import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { importNeeding, missingPackages, missingPackagesMessage } from "./import-optional.js";

const OPENAI = { name: "openai", version: "6.49.0" };
const ABSENT = { name: "@toolsift-test/absent-sdk", version: "1.2.3" };

let scratch = "";
let needsAbsent = "";

beforeAll(async () => {
  // A module outside the repository that imports a package no node_modules holds: Node's own failure.
  scratch = await mkdtemp(join(tmpdir(), "toolsift-import-optional-"));
  needsAbsent = join(scratch, "needs-absent.mjs");
  await writeFile(needsAbsent, `import "${ABSENT.name}";\nexport const loaded = true;\n`);
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("importNeeding", () => {
  it("turns Node's missing-package failure into a ToolsiftError naming the install command", async () => {
    const failure = await importNeeding(() => import(pathToFileURL(needsAbsent).href), {
      what: "The test feature",
      packages: [ABSENT],
      code: "PROVIDER_FAILED",
    }).catch((error: unknown) => error);
    expect(isToolsiftError(failure)).toBe(true);
    const { code, message } = failure as { code: string; message: string };
    expect(code).toBe("PROVIDER_FAILED");
    expect(message).toMatch(
      /^The test feature needs the package @toolsift-test\/absent-sdk, which is not installed\. Install it: npm install$/u,
    );
    expect(message).not.toContain("Cannot find");
  });

  it("passes any other failure through unchanged, a missing package it was not told about included", async () => {
    const other = new Error("boom");
    await expect(
      importNeeding(() => Promise.reject(other), { what: "x", packages: [ABSENT], code: "PROVIDER_FAILED" }),
    ).rejects.toBe(other);
    const unrelated = await import(pathToFileURL(needsAbsent).href).catch((error: unknown) => error);
    await expect(
      importNeeding(() => Promise.reject(unrelated), {
        what: "x",
        packages: [OPENAI],
        code: "PROVIDER_FAILED",
      }),
    ).rejects.toBe(unrelated);
  });

  it("resolves with the module when it loads", async () => {
    const module = await importNeeding(() => Promise.resolve({ loaded: true }), {
      what: "x",
      packages: [OPENAI],
      code: "PROVIDER_FAILED",
    });
    expect(module).toEqual({ loaded: true });
  });
});

describe("missingPackages and missingPackagesMessage", () => {
  it("resolves packages without loading them: openai is installed here, the absent one is not", () => {
    expect(missingPackages([OPENAI, ABSENT])).toEqual([ABSENT]);
  });

  it("words one package and several", () => {
    expect(missingPackagesMessage('Provider "x"', [ABSENT])).toMatch(
      /^Provider "x" needs the package @toolsift-test\/absent-sdk, which is not installed\. Install it: /u,
    );
    expect(missingPackagesMessage("Telemetry", [ABSENT, OPENAI])).toMatch(
      /^Telemetry needs the packages @toolsift-test\/absent-sdk, openai, which are not installed\. Install them: /u,
    );
  });
});
