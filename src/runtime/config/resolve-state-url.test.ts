import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal, thrown } from "../../shared/errors/toolsift-error.test-support.js";
import { loadConfig } from "./load-config.js";
import { resolveStateUrl } from "./resolve-state-url.js";

const URL_A = "postgresql://toolsift:s3cret-a@db-a.internal:5432/toolsift";
const URL_B = "postgres://toolsift:s3cret-b@db-b.internal/toolsift";

let dir: string;
let file: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "toolsift-state-url-"));
  file = path.join(dir, "toolsift.json");
  env = { HOME: dir, TOOLSIFT_HOME: dir };
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("state.url: where the state database comes from", () => {
  it("no key and no variable: no stateUrl (state stays in files)", async () => {
    await writeFile(file, "{ gateway: { port: 0 } }");
    const loaded = await loadConfig({ env });
    expect("stateUrl" in loaded).toBe(false);
    expect(loaded.stateDir).toBe(path.join(dir, "state"));
  });

  it.each([URL_A, URL_B])("the key's value %s is the stateUrl", async (url) => {
    await writeFile(file, JSON.stringify({ state: { url } }));
    const loaded = await loadConfig({ env });
    expect(loaded.stateUrl).toBe(url);
    expect(loaded.config.state).toEqual({ url });
  });

  it("an env: reference resolves like every other value", async () => {
    await writeFile(file, '{ state: { url: "env:FLEET_DB" } }');
    const loaded = await loadConfig({ env: { ...env, FLEET_DB: URL_A } });
    expect(loaded.stateUrl).toBe(URL_A);
    expect(loaded.warnings).toEqual([]);
  });

  it("TOOLSIFT_STATE_URL applies when the file names no state.url, with or without a file", async () => {
    await writeFile(file, "{ gateway: { port: 0 } }");
    expect((await loadConfig({ env: { ...env, TOOLSIFT_STATE_URL: URL_A } })).stateUrl).toBe(URL_A);
    await rm(file);
    const missing = await loadConfig({ env: { ...env, TOOLSIFT_STATE_URL: URL_B } });
    expect(missing.exists).toBe(false);
    expect(missing.stateUrl).toBe(URL_B);
  });

  it("an empty or blank TOOLSIFT_STATE_URL counts as unset", async () => {
    for (const value of ["", "  "]) {
      const loaded = await loadConfig({ env: { ...env, TOOLSIFT_STATE_URL: value } });
      expect("stateUrl" in loaded).toBe(false);
    }
  });

  it("the file's explicit value wins over TOOLSIFT_STATE_URL", async () => {
    await writeFile(file, JSON.stringify({ state: { url: URL_A } }));
    expect((await loadConfig({ env: { ...env, TOOLSIFT_STATE_URL: URL_B } })).stateUrl).toBe(URL_A);
  });

  it("a reference to an unset variable warns and falls back to TOOLSIFT_STATE_URL", async () => {
    await writeFile(file, '{ state: { url: "env:FLEET_DB" } }');
    const withFallback = await loadConfig({ env: { ...env, TOOLSIFT_STATE_URL: URL_B } });
    expect(withFallback.stateUrl).toBe(URL_B);
    expect(withFallback.warnings).toEqual(["state.url: environment variable FLEET_DB is not set"]);
    expect("stateUrl" in (await loadConfig({ env }))).toBe(false);
  });
});

describe("state.url: anything but a postgresql:// URL is refused, naming the key and never the value", () => {
  it.each([
    ["an https URL", "https://toolsift:s3cret@db.internal/toolsift"],
    ["a bare host", "db.internal:5432"],
    ["a mysql URL", "mysql://toolsift:s3cret@db.internal/toolsift"],
  ])("in the file: %s", async (_label, url) => {
    await writeFile(file, JSON.stringify({ state: { url } }));
    const error = await refusal(() => loadConfig({ env }));
    expect(error.code).toBe("CONFIG_INVALID");
    const lines = error.message.split("\n");
    expect(lines[0]).toBe(`Invalid config ${file}:`);
    expect(lines[1]).toBe(
      'state.url: expected a postgresql:// URL, e.g. "postgresql://toolsift:password@db.internal:5432/toolsift", or "env:TOOLSIFT_STATE_URL"',
    );
    expect(error.message).not.toContain("s3cret");
  });

  it("from an env: reference: names the key and the variable", async () => {
    await writeFile(file, '{ state: { url: "env:FLEET_DB" } }');
    const error = await refusal(() =>
      loadConfig({ env: { ...env, FLEET_DB: "https://toolsift:s3cret@db.internal/toolsift" } }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      "state.url (from environment variable FLEET_DB) must be a postgresql:// URL, not https://…: write it as postgresql://user:password@host:5432/database, or unset it to keep state in files under TOOLSIFT_STATE_DIR.",
    );
  });

  it("from TOOLSIFT_STATE_URL: names the variable, with or without a file", async () => {
    const bad = { ...env, TOOLSIFT_STATE_URL: "redis://:s3cret@cache.internal" };
    const expected =
      "environment variable TOOLSIFT_STATE_URL must be a postgresql:// URL, not redis://…: write it as postgresql://user:password@host:5432/database, or unset it to keep state in files under TOOLSIFT_STATE_DIR.";
    const withoutFile = await refusal(() => loadConfig({ env: bad }));
    expect([withoutFile.code, withoutFile.message]).toEqual(["CONFIG_INVALID", expected]);
    await writeFile(file, "{}");
    const withFile = await refusal(() => loadConfig({ env: bad }));
    expect([withFile.code, withFile.message]).toEqual(["CONFIG_INVALID", expected]);
  });

  it("text that is not a URL says so", () => {
    const error = thrown(() => resolveStateUrl({ config: {}, env: { TOOLSIFT_STATE_URL: "not a url" } }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain("TOOLSIFT_STATE_URL must be a postgresql:// URL (it is not a URL)");
  });

  it("state is a strict object: an unknown key is refused with the known ones", async () => {
    await writeFile(file, JSON.stringify({ state: { url: URL_A, dir: "/tmp" } }));
    const error = await refusal(() => loadConfig({ env }));
    expect(error.message.split("\n")[1]).toBe("state.dir: unknown key (expected url)");
  });
});
