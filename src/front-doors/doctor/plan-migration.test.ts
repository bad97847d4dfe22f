import { describe, expect, it } from "vitest";
import { applyConfigEdit } from "../config-editor/index.js";
import { planMigration } from "./plan-migration.js";

/** The config after the planned edits. */
function migrate(raw: unknown): unknown {
  return planMigration(raw).edits.reduce<unknown>((value, edit) => applyConfigEdit(value, edit), raw);
}

describe("planMigration", () => {
  it.each([
    [
      { enabled: false, mode: "code", codeTimeoutMs: 2500, searchDefaultLimit: 4, maxSearchLimit: 12 },
      { enabled: false, mode: "tools", searchDefaultLimit: 4, maxSearchLimit: 12 },
    ],
    [{ codeTimeoutMs: 2500 }, { enabled: true }],
    [{ mode: "code" }, { mode: "tools" }],
    [{ mode: "code", codeTimeoutMs: 1 }, { mode: "tools" }],
    [{ enabled: true, codeTimeoutMs: 1 }, { enabled: true }],
  ])("%j becomes %j", (toolSearch, migrated) => {
    expect(migrate({ tools: { toolSearch }, gateway: { port: 1 } })).toEqual({
      tools: { toolSearch: migrated },
      gateway: { port: 1 },
    });
  });

  it.each([
    [{}],
    [{ tools: {} }],
    [{ tools: { toolSearch: true } }],
    [{ tools: { toolSearch: { mode: "directory" } } }],
    [{ tools: "code" }],
    [[]],
    [null],
  ])("plans nothing for %j", (raw) => {
    expect(planMigration(raw)).toEqual({ retired: [], edits: [], changes: [] });
  });

  it("names each change as it will be printed", () => {
    expect(
      planMigration({ tools: { toolSearch: { mode: "code", codeTimeoutMs: "x".repeat(200) } } }).changes,
    ).toEqual([
      'tools.toolSearch.mode: "code" → "tools"',
      `tools.toolSearch.codeTimeoutMs: removed (was "${"x".repeat(44)}...)`,
    ]);
  });
});
