import { expect, test } from "vitest";
import { createGroupCommit } from "./group-commit.js";

/** A group commit over a write that records each batch, and can be held until released. */
function recorder() {
  const batches: Array<{ key: string; text: string; sync: boolean }> = [];
  const commit = createGroupCommit(async (key, text, sync) => {
    batches.push({ key, text, sync });
  });
  return { batches, commit };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test("lines added across awaits within one turn of the event loop go out as one write, in order", async () => {
  const { batches, commit } = recorder();
  const written: Promise<void>[] = [];
  // A run between two waits: it logs, awaits settled work (microtasks), logs again.
  written.push(commit.add("s", "a\n"));
  await Promise.resolve();
  written.push(commit.add("s", "b\n"));
  await Promise.resolve().then(() => undefined);
  written.push(commit.add("s", "c\n", true));
  await Promise.all(written);
  expect(batches).toEqual([{ key: "s", text: "a\nb\nc\n", sync: true }]);
});

test("a line added in a later turn is its own write; keys are written apart", async () => {
  const { batches, commit } = recorder();
  const first = [commit.add("s", "a\n"), commit.add("t", "x\n")];
  await nextTurn();
  await nextTurn();
  await Promise.all([...first, commit.add("s", "b\n")]);
  expect(batches).toEqual([
    { key: "s", text: "a\n", sync: false },
    { key: "t", text: "x\n", sync: false },
    { key: "s", text: "b\n", sync: false },
  ]);
});

test("an append resolves only after the write that carries its line; a failed write rejects its lines only", async () => {
  let fail = true;
  const batches: string[] = [];
  const commit = createGroupCommit(async (_key, text) => {
    if (fail) {
      fail = false;
      throw new Error("disk full");
    }
    batches.push(text);
  });
  const lost = commit.add("s", "a\n");
  await expect(lost).rejects.toThrow("disk full");
  let resolved = false;
  const kept = commit.add("s", "b\n").then(() => {
    resolved = true;
  });
  expect(resolved).toBe(false);
  expect(batches).toEqual([]);
  await kept;
  expect(batches).toEqual(["b\n"]);
  await commit.idle("s");
});
