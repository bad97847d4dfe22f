import { describe, expect, it } from "vitest";
import { createCatalogSnapshot } from "../catalog/index.js";
import { entriesOf, namesOf } from "./search.test-support.js";
import { searchIndexFor } from "./search-index-for.js";

describe("searchIndexFor", () => {
  it("reuses the index of the same snapshot and makes a new one for a new snapshot", () => {
    const tools = [
      { name: "b", description: "second tool" },
      { name: "a", description: "first tool" },
    ];
    const snapshot = createCatalogSnapshot(entriesOf(...tools));
    const index = searchIndexFor(snapshot);
    expect(searchIndexFor(snapshot)).toBe(index);
    expect(index.size).toBe(2);
    expect(namesOf(index.search("tool", 5))).toEqual(["a", "b"]);

    const next = createCatalogSnapshot(entriesOf(...tools, { name: "c", description: "third tool" }));
    expect(searchIndexFor(next)).not.toBe(index);
    expect(searchIndexFor(next).size).toBe(3);
    expect(index.size).toBe(2);
  });
});
