import { describe, expect, it } from "vitest";
import { formatDoctorReport } from "./format-doctor-report.js";

describe("formatDoctorReport", () => {
  it("prints one line per check, details and fixes indented, the backup and a summary", () => {
    const text = formatDoctorReport({
      configPath: "/etc/toolsift.json",
      stateDir: "/var/toolsift",
      ok: false,
      backupPath: "/etc/toolsift.json.bak-1",
      checks: [
        {
          name: "config",
          status: "error",
          message: "2 problems",
          details: ["a: bad", "b: worse"],
          fix: "edit it",
        },
        { name: "retired-keys", status: "fixed", message: 'tools.toolSearch.mode: "code" → "tools"' },
        { name: "providers", status: "warn", message: "spare: no key" },
        {
          name: "plugins",
          status: "ok",
          message: "evil\u001b]0;title\u0007: loaded",
          fix: "never shown for ok",
        },
      ],
    });
    expect(text).toBe(
      [
        "error  config: 2 problems",
        "         a: bad",
        "         b: worse",
        "       fix: edit it",
        'fixed  retired-keys: tools.toolSearch.mode: "code" → "tools"',
        "warn   providers: spare: no key",
        "ok     plugins: evil\uFFFD]0;title\uFFFD: loaded",
        "The old file was saved as /etc/toolsift.json.bak-1",
        "1 error, 1 warning, 1 change made.",
        "",
      ].join("\n"),
    );
  });

  it("says so when everything passed", () => {
    const text = formatDoctorReport({
      configPath: "/x",
      stateDir: "/y",
      ok: true,
      checks: [{ name: "config", status: "ok", message: "fine" }],
    });
    expect(text).toBe("ok     config: fine\nAll checks passed.\n");
  });
});
