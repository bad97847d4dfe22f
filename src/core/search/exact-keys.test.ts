import { describe, expect, it } from "vitest";
import { ExactKeys } from "./exact-keys.js";
import { entriesOf } from "./search.test-support.js";

const entries = entriesOf(
  { name: "listURL", origin: { kind: "plugin", owner: "web" } },
  { name: "listUrl", origin: { kind: "plugin", owner: "web" } },
  { name: "Ärger", origin: { kind: "plugin", owner: "de" } },
  { name: "İstanbul", origin: { kind: "plugin", owner: "tr" } },
  { name: "listurl", origin: { kind: "plugin", owner: "other" } },
);
const keys = new ExactKeys(entries);

describe("ExactKeys", () => {
  it("finds a document by its exact id, its exact name, and both case-insensitively", () => {
    expect(keys.find("native:web:listURL")).toEqual({ byId: [0], byName: [], byFoldedKey: [0, 1] });
    expect(keys.find("listURL")).toEqual({ byId: [], byName: [0], byFoldedKey: [0, 1, 4] });
    expect(keys.find("LISTurl")).toEqual({ byId: [], byName: [], byFoldedKey: [0, 1, 4] });
  });

  it("folds non-ASCII names the way toLowerCase does", () => {
    expect(keys.find("ärger")).toEqual({ byId: [], byName: [], byFoldedKey: [2] });
    expect(keys.find("ÄRGER")).toEqual({ byId: [], byName: [], byFoldedKey: [2] });
    expect(keys.find("İstanbul".toLowerCase())).toEqual({ byId: [], byName: [], byFoldedKey: [3] });
    expect(keys.find("native:de:Ärger").byId).toEqual([2]);
  });

  it("finds nothing for a prefix, a substring or an unknown key", () => {
    for (const query of ["list", "url", "listurls", "native:web", "", "zzz"]) {
      expect(keys.find(query)).toEqual({ byId: [], byName: [], byFoldedKey: [] });
    }
  });

  it("lists a document once when its name and id both match", () => {
    const [entry] = entriesOf({ name: "x" });
    const same = { ...entry!, id: "X" };
    expect(new ExactKeys([same]).find("x")).toEqual({ byId: [], byName: [0], byFoldedKey: [0] });
  });

  it("keeps 20,000 keys apart", () => {
    const many = entriesOf(...Array.from({ length: 10_000 }, (_, index) => ({ name: `tool_${index}` })));
    const table = new ExactKeys(many);
    for (const index of [0, 1, 4_999, 9_999]) {
      expect(table.find(`tool_${index}`)).toEqual({ byId: [], byName: [index], byFoldedKey: [index] });
      expect(table.find(`native:test:TOOL_${index}`).byFoldedKey).toEqual([index]);
    }
  });
});
