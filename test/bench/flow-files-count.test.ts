import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  distFilesRun,
  type FunctionCoverage,
  functionsCalled,
  type ScriptCoverage,
  sourcePathOf,
} from "../../bench/flow-files-count.js";

const ROOT = "/checkout";
const DIST = pathToFileURL("/checkout/dist/").href;

/** A function starting at `start` called `count` times (function granularity: one range). */
function fn(start: number, count: number, name = ""): FunctionCoverage {
  return {
    functionName: name,
    ranges: [{ startOffset: start, endOffset: start + 10, count }],
    isBlockCoverage: false,
  };
}

function script(url: string, functions: FunctionCoverage[]): ScriptCoverage {
  return { scriptId: url, url, functions };
}

const COVERAGE: ScriptCoverage[] = [
  script(`${DIST}front-doors/cli/main.js`, [fn(0, 0), fn(20, 3, "runCli")]),
  script(`${DIST}core/catalog/types.js`, [fn(0, 0)]),
  script(`${DIST}runtime/sessions/session-key.js`, [fn(0, 1)]),
  script(`${DIST}shared/text/cut-text.js`, [fn(0, 0), fn(30, 0, "cutText"), fn(60, 2, "cutLine")]),
  script(`${DIST}shared/text/cut-text.js.map`, []),
  script(`${DIST}node_modules/hono/dist/index.js`, [fn(0, 5)]),
  script("file:///checkout/node_modules/openai/index.mjs", [fn(0, 7)]),
  script("file:///elsewhere/dist/front-doors/cli/main.js", [fn(0, 1)]),
  script(`${DIST}index-chunks/chunk-ABC.js`, [fn(0, 1)]),
];

describe("distFilesRun: the dist files with code run in a coverage take", () => {
  it("counts each file under the root's dist/ with a called function, once, sorted", () => {
    expect(distFilesRun(COVERAGE, ROOT)).toEqual([
      "front-doors/cli/main.js",
      "index-chunks/chunk-ABC.js",
      "runtime/sessions/session-key.js",
      "shared/text/cut-text.js",
    ]);
  });

  it("takes the root with or without a trailing slash", () => {
    expect(distFilesRun(COVERAGE, `${ROOT}/`)).toEqual(distFilesRun(COVERAGE, ROOT));
  });

  it("counts nothing when no function ran, and nothing from another root", () => {
    const idle = COVERAGE.map((entry) => ({ ...entry, functions: entry.functions.map(() => fn(0, 0)) }));
    expect(distFilesRun(idle, ROOT)).toEqual([]);
    expect(distFilesRun(COVERAGE, "/another")).toEqual([]);
  });

  it("leaves out background functions but still counts their file when another of its functions ran", () => {
    const background = functionsCalled([
      script(`${DIST}front-doors/cli/main.js`, [fn(20, 9)]),
      script(`${DIST}runtime/sessions/session-key.js`, [fn(0, 1)]),
      script(`${DIST}shared/text/cut-text.js`, [fn(30, 4)]),
    ]);
    expect(distFilesRun(COVERAGE, ROOT, background)).toEqual([
      "index-chunks/chunk-ABC.js",
      "shared/text/cut-text.js",
    ]);
  });

  it("functionsCalled keeps only functions with a count", () => {
    expect([...functionsCalled(COVERAGE.slice(0, 2))]).toEqual([`${DIST}front-doors/cli/main.js#20`]);
  });
});

describe("sourcePathOf: the source a dist file was built from", () => {
  it("maps tsc's output back to src/ and keeps the library bundle as dist/", () => {
    expect(sourcePathOf("front-doors/cli/main.js")).toBe("src/front-doors/cli/main.ts");
    expect(sourcePathOf("catalog/types.js")).toBe("src/catalog/types.ts");
    expect(sourcePathOf("index.js")).toBe("dist/index.js");
    expect(sourcePathOf("index-chunks/chunk-ABC.js")).toBe("dist/index-chunks/chunk-ABC.js");
  });
});
