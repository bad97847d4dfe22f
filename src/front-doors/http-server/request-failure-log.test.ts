import { describe, expect, it } from "vitest";
import { createRequestFailureLog } from "./request-failure-log.js";

describe("createRequestFailureLog", () => {
  it("answers descriptor exhaustion busy and anything else internal, logging each cause once", () => {
    const lines: string[] = [];
    const failures = createRequestFailureLog({ name: "test server", log: (line) => lines.push(line) });
    const emfile = Object.assign(new Error("accept EMFILE"), { code: "EMFILE" });
    const wrapped = new Error("session log failed", { cause: emfile });
    const internal = new Error("boom\nsecond line");
    for (let index = 0; index < 20; index += 1) {
      expect(failures("in a test", emfile)).toBe("busy");
      expect(failures("in a test", wrapped)).toBe("busy");
      expect(failures("in a test", internal)).toBe("internal");
      expect(failures("in a test", "a thrown string")).toBe("internal");
    }
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      "test server out of file descriptors (EMFILE): requests are answered 503 until descriptors free up; raise the limit (ulimit -n) or lower test server connections",
    );
    expect(lines[1]).toMatch(/^internal error in a test: Error: boom\nsecond line\n {4}at /u);
    expect(lines[2]).toBe("internal error in a test: a thrown string");
    failures.close();
    expect(lines.slice(3)).toEqual([
      `${lines[0]} (repeated 39 more times)`,
      `${lines[1]} (repeated 19 more times)`,
      `${lines[2]} (repeated 19 more times)`,
    ]);
  });
});
