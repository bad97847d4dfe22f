import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe } from "vitest";
import { createFileSessionStore } from "./file-session-store.js";
import { appendWatchCases, contentSearchCases } from "./session-content-search.test-support.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function open() {
  const dir = await mkdtemp(join(tmpdir(), "toolsift-content-"));
  dirs.push(dir);
  return createFileSessionStore(dir);
}

describe("createFileSessionStore: listPage searches by content", () => {
  contentSearchCases(open);
});

describe("createFileSessionStore: onAppended", () => {
  appendWatchCases(open);
});
