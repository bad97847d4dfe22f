import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe } from "vitest";
import { createFileSessionStore } from "./file-session-store.js";
import { contentSearchCases } from "./session-content-search.test-support.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("createFileSessionStore: listPage searches by content", () => {
  contentSearchCases(async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolsift-content-"));
    dirs.push(dir);
    return createFileSessionStore(dir);
  });
});
