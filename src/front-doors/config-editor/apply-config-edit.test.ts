import { describe, expect, it } from "vitest";
import { applyConfigEdit } from "./apply-config-edit.js";

describe("applyConfigEdit", () => {
  const base = { tools: { toolSearch: true, deny: ["exec", "write"] }, agents: { list: [{ id: "main" }] } };

  it("sets existing and missing values, creating parents, without changing the input", () => {
    const snapshot = structuredClone(base);
    expect(applyConfigEdit(base, { op: "set", path: ["tools", "toolSearch"], value: false })).toEqual({
      ...base,
      tools: { ...base.tools, toolSearch: false },
    });
    expect(
      applyConfigEdit(base, { op: "set", path: ["gateway", "auth", "token"], value: "env:T" }),
    ).toMatchObject({
      gateway: { auth: { token: "env:T" } },
    });
    expect(applyConfigEdit(base, { op: "set", path: ["models", "list", 0, "id"], value: "x" })).toMatchObject(
      {
        models: { list: [{ id: "x" }] },
      },
    );
    expect(base).toEqual(snapshot);
  });

  it("replaces and appends array elements", () => {
    expect(applyConfigEdit(base, { op: "set", path: ["tools", "deny", 1], value: "edit" })).toMatchObject({
      tools: { deny: ["exec", "edit"] },
    });
    expect(applyConfigEdit(base, { op: "set", path: ["tools", "deny", 2], value: "edit" })).toMatchObject({
      tools: { deny: ["exec", "write", "edit"] },
    });
  });

  it("removes keys and array elements", () => {
    const withoutSearch = applyConfigEdit(base, { op: "unset", path: ["tools", "toolSearch"] });
    expect(withoutSearch.tools).toEqual({ deny: ["exec", "write"] });
    const withoutFirst = applyConfigEdit(base, { op: "unset", path: ["tools", "deny", 0] });
    expect(withoutFirst).toMatchObject({ tools: { deny: ["write"] } });
  });

  const refusals: [string, Parameters<typeof applyConfigEdit>[1], string][] = [
    ["an unset of nothing", { op: "unset", path: ["tools", "allow"] }, "No value at tools.allow."],
    [
      "an unset below a scalar",
      { op: "unset", path: ["tools", "toolSearch", "mode"] },
      "No value at tools.toolSearch.mode.",
    ],
    ["an unset past the end", { op: "unset", path: ["tools", "deny", 5] }, "No value at tools.deny[5]."],
    [
      "a set below a scalar",
      { op: "set", path: ["tools", "toolSearch", "mode"], value: "tools" },
      "tools.toolSearch is true, not an object or array, so it has no mode; set tools.toolSearch itself instead.",
    ],
    [
      "a key on an array",
      { op: "set", path: ["tools", "deny", "x"], value: 1 },
      "tools.deny is an array; address its elements by index, e.g. tools.deny[0].",
    ],
    [
      "an index on an object",
      { op: "set", path: ["tools", 0], value: 1 },
      "tools is an object, not an array; address its keys by name, e.g. tools.name.",
    ],
    [
      "a gap in an array",
      { op: "set", path: ["tools", "deny", 4], value: "x" },
      "tools.deny[4] is past the end of tools.deny (2 elements); use tools.deny[2] to append.",
    ],
    [
      "a new array not starting at 0",
      { op: "set", path: ["tools", "allow", 1], value: "x" },
      "tools.allow[1] is past the end of tools.allow (0 elements); use tools.allow[0] to append.",
    ],
  ];
  it.each(refusals)("refuses %s", (_, edit, message) => {
    expect(() => applyConfigEdit(base, edit)).toThrow(
      expect.objectContaining({ code: "INVALID_REQUEST", message }),
    );
  });

  it("refuses a top level that is not an object", () => {
    expect(() => applyConfigEdit([1], { op: "set", path: ["a"], value: 1 })).toThrow(/must be an object/u);
  });
});
