import { describe, expect, it } from "vitest";
import { type CatalogEntry, toCatalogEntry } from "../catalog/index.js";
import { buildBatchResponse, fitCandidateMetadata } from "./batch-response.js";
import { echoTool } from "./controls.test-support.js";
import { modelText } from "./model-data.js";
import { toCandidate } from "./to-candidate.js";
import type { SearchCandidate } from "./types.js";

function entry(...args: Parameters<typeof echoTool>): CatalogEntry {
  const made = toCatalogEntry(echoTool(...args));
  if (!made) throw new Error("test tool was not cataloged");
  return made;
}

/** Entries whose compact candidates are roughly 550 characters of JSON each. */
function entries(prefix: string, count: number): CatalogEntry[] {
  return Array.from({ length: count }, (_, index) =>
    entry(`${prefix}_${String(index).padStart(2, "0")}`, {
      description: `${prefix} ${"word ".repeat(60)}`,
      label: `${prefix} ${"label ".repeat(40)}`,
    }),
  );
}

const base: SearchCandidate = {
  id: "native:p:t",
  source: "native",
  owner: "p",
  name: "t",
  description: "d",
  input: "{}",
};

describe("fitCandidateMetadata", () => {
  it("keeps a candidate that fits unchanged", () => {
    const candidate = { ...base, label: "L", output: "{ ok: boolean }" };
    expect(fitCandidateMetadata(candidate)).toEqual(candidate);
  });

  it("drops a candidate whose id, source, name and input alone exceed 2,000 characters", () => {
    const name = "n".repeat(1_000);
    const exactly = { ...base, id: `native:p:${name}`.slice(0, 994), name, input: "{}" };
    // 994 + 6 + 1000 + 2 = 2002
    expect(fitCandidateMetadata(exactly)).toBeUndefined();
    const fits = { ...exactly, id: exactly.id.slice(0, 992) }; // 2000 exactly
    const { owner: _owner, ...withoutOwner } = fits;
    expect(fitCandidateMetadata(fits)).toEqual({ ...withoutOwner, description: "" });
  });

  it("keeps owner, label, mcp, output in that order while they fit", () => {
    // core: 10 + 6 + 1 + 2 = 19; description 1 → 1,980 left.
    const label = "L".repeat(1_000);
    const output = "O".repeat(990);
    const candidate: SearchCandidate = { ...base, label, output, mcp: { server: "s", tool: "t" } };
    const fitted = fitCandidateMetadata(candidate);
    // owner 1 + label 1000 + mcp 2 = 1003; output 990 would need 1993 > 1980: output goes.
    expect(fitted).toEqual({ ...base, label, mcp: { server: "s", tool: "t" } });
    const bigLabel = fitCandidateMetadata({ ...base, label: "L".repeat(1_990), output: "{ ok: boolean }" });
    // the label does not fit, so nothing after it is kept either
    expect(bigLabel).toEqual({ ...base });
  });

  it("cuts the description to what the budget leaves", () => {
    const input = "i".repeat(1_900);
    const fitted = fitCandidateMetadata({ ...base, input, description: "d".repeat(180) });
    // core 10 + 6 + 1 + 1900 = 1917: 83 left for the description.
    expect(fitted?.description).toHaveLength(83);
    expect(fitted?.description.endsWith("...")).toBe(true);
    expect(fitted).not.toHaveProperty("owner");
  });
});

describe("buildBatchResponse", () => {
  it("answers in request order with compact candidates and no truncation when it fits", () => {
    const response = buildBatchResponse([
      { query: "b", entries: [entry("beta", { description: "  spaced \n\n text " })] },
      { query: "a", entries: [entry("alpha")] },
      { query: "none", entries: [] },
    ]);
    expect(response).toEqual({
      results: [
        { query: "b", candidates: [expect.objectContaining({ name: "beta", description: "spaced text" })] },
        { query: "a", candidates: [expect.objectContaining({ name: "alpha" })] },
        { query: "none", candidates: [] },
      ],
    });
    expect(response).not.toHaveProperty("truncated");
  });

  it("lets the same candidate appear in several groups", () => {
    const shared = entry("shared");
    const response = buildBatchResponse([
      { query: "x", entries: [shared] },
      { query: "y", entries: [shared] },
    ]);
    expect(response.results.map((group) => group.candidates[0]?.id)).toEqual([
      "native:core:shared",
      "native:core:shared",
    ]);
  });

  it("stays within 4,000 characters by trimming the largest group from its lowest rank, ending balanced", () => {
    const groups = [
      { query: "one", entries: entries("one", 20) },
      { query: "two", entries: entries("two", 3) },
      { query: "three", entries: entries("three", 20) },
    ];
    const response = buildBatchResponse(groups);
    expect(modelText(response).length).toBeLessThanOrEqual(4_000);
    const sizes = response.results.map((group) => group.candidates.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    // ranking order kept: each group is a prefix of its ranked list
    response.results.forEach((group, index) => {
      expect(group.candidates.map((candidate) => candidate.id)).toEqual(
        groups[index]?.entries.slice(0, group.candidates.length).map((item) => item.id),
      );
    });
    expect(response.truncated).toBe(true);
    expect(response.results[0]?.truncated).toBe(true);
    expect(response.results[2]?.truncated).toBe(true);
    // the earlier group loses first on ties, so it is never larger than the later one
    expect(sizes[0]).toBeLessThanOrEqual(sizes[2] ?? 0);
  });

  it("takes from the earlier group when the largest groups tie", () => {
    let checked = false;
    for (let length = 200; length <= 1_200 && !checked; length += 10) {
      const group = (prefix: string) =>
        [1, 2].map((index) => entry(`${prefix}${index}_${"n".repeat(length)}`));
      const response = buildBatchResponse([
        { query: "a", entries: group("a") },
        { query: "b", entries: group("b") },
      ]);
      const sizes = response.results.map((result) => result.candidates.length);
      if (sizes[0] !== undefined && sizes[1] !== undefined && sizes[0] + sizes[1] === 3) {
        expect(sizes).toEqual([1, 2]);
        expect(response.results[0]?.truncated).toBe(true);
        expect(response.results[1]).not.toHaveProperty("truncated");
        checked = true;
      }
    }
    expect(checked).toBe(true);
  });

  it("removes only as much as needed: one more candidate would not fit", () => {
    const groups = [
      { query: "one", entries: entries("one", 10) },
      { query: "two", entries: entries("two", 10) },
    ];
    const response = buildBatchResponse(groups);
    const kept = response.results.map((group) => group.candidates.length);
    const total = kept.reduce((sum, size) => sum + size, 0);
    expect(total).toBeLessThan(20);
    // From [10, 10] removals alternate: group 0, group 1, group 0, ... so the last one came from group 1
    // when the sizes are equal, else from group 0. Putting it back must overflow the budget.
    const last = kept[0] === kept[1] ? 1 : 0;
    const previous = structuredClone(response);
    const next = groups[last]?.entries[kept[last] ?? 0];
    if (!next) throw new Error("no candidate to restore");
    const restored = fitCandidateMetadata(toCandidate(next, { compact: true }));
    if (!restored) throw new Error("candidate should fit its metadata budget");
    previous.results[last]?.candidates.push(restored);
    expect(modelText(previous).length).toBeGreaterThan(4_000);
  });

  it("marks only groups that lost candidates, including ones dropped for metadata", () => {
    const huge = entry("h".repeat(1_200), { description: "oversized name" });
    const response = buildBatchResponse([
      { query: "ok", entries: [entry("fine")] },
      { query: "huge", entries: [huge] },
    ]);
    expect(response.results[0]).not.toHaveProperty("truncated");
    expect(response.results[1]).toEqual({ query: "huge", candidates: [], truncated: true });
    expect(response.truncated).toBe(true);
  });
});
