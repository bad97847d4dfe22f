import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeModeToolSearch, pluginTool, weatherTool } from "./code-mode.test-support.js";
import { createCodeMode } from "./create-code-mode.js";
import type { CodeMode, CodeModeOutcome } from "./types.js";

/** Every global a cell may see: ECMAScript built-ins as QuickJS provides them, plus the three bridge names. */
const ALLOWED_GLOBALS = new Set([
  ...["AggregateError", "Array", "ArrayBuffer", "BigInt", "BigInt64Array", "BigUint64Array", "Boolean"],
  ...["DataView", "Date", "Error", "EvalError", "FinalizationRegistry", "Float16Array", "Float32Array"],
  ...["Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array", "InternalError"],
  ...["Iterator", "JSON", "Map", "Math", "NaN", "Number", "Object", "Promise", "Proxy", "RangeError"],
  ...["ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer", "String", "Symbol", "SyntaxError"],
  ...["TypeError", "URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap"],
  ...["WeakRef", "WeakSet", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape"],
  ...["eval", "globalThis", "isFinite", "isNaN", "parseFloat", "parseInt", "undefined", "unescape"],
  ...["console", "openclaw", "tools"],
]);

const marker = `marker_${randomBytes(8).toString("hex")}`;
const echoed: unknown[] = [];
let folder: string;
let target: string;
let listener: Server;
let port: number;
let connections = 0;
let codeMode: CodeMode;
const outcomes: CodeModeOutcome[] = [];

beforeAll(async () => {
  process.env.TOOLSIFT_ESCAPE_MARKER = marker;
  folder = await mkdtemp(join(tmpdir(), "toolsift-escape-"));
  target = join(folder, "escaped.txt");
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
  const echo = pluginTool("debug", "echo_args", {
    description: "Echo the arguments back.",
    run: (args) => {
      echoed.push(args);
      return { content: [{ type: "text", text: "echoed" }], details: args };
    },
  });
  codeMode = createCodeMode({ toolSearch: codeModeToolSearch([weatherTool().tool, echo]), poolSize: 2 });
});

afterAll(async () => {
  await codeMode.close();
  delete process.env.TOOLSIFT_ESCAPE_MARKER;
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await rm(folder, { recursive: true, force: true });
});

async function run(source: string): Promise<CodeModeOutcome> {
  const outcome = await codeMode.exec(
    source.replaceAll("$TARGET", JSON.stringify(target)).replaceAll("$PORT", String(port)),
  );
  outcomes.push(outcome);
  return outcome;
}

type Expectation = { fails: RegExp } | { returns: unknown };

/** Probes whose outcome is the whole assertion inside the cell; the outside is checked after the table. */
const probes: Array<[string, string, Expectation]> = [
  ["process is not defined", "process.exit(1);", { fails: /ReferenceError: 'process' is not defined/u }],
  [
    "signalling the parent: process.kill is unreachable",
    "process.kill(0, 'SIGKILL');",
    { fails: /'process' is not defined/u },
  ],
  [
    "require is not defined",
    "require('child_process').execSync('touch ' + $TARGET);",
    { fails: /'require' is not defined/u },
  ],
  ["import() of a Node module fails", "await import('node:fs');", { fails: /could not load module/u }],
  [
    "import() of a file URL fails",
    "await import('file:///etc/hostname');",
    { fails: /could not load module/u },
  ],
  ["import() of QuickJS's std module fails", "await import('std');", { fails: /could not load module/u }],
  ["fetch is not defined", "await fetch('http://127.0.0.1:$PORT/');", { fails: /'fetch' is not defined/u }],
  [
    "no network object exists",
    "return [typeof XMLHttpRequest, typeof WebSocket, typeof navigator, typeof Deno, typeof Bun, typeof net];",
    { returns: ["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"] },
  ],
  [
    "no file system object exists",
    "return [typeof std, typeof os, typeof fs, typeof Buffer, typeof scriptArgs, typeof print];",
    { returns: ["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"] },
  ],
  [
    "writing a file fails",
    "require('fs').writeFileSync($TARGET, 'escaped');",
    { fails: /'require' is not defined/u },
  ],
  [
    "no environment: nothing names process.env",
    "return [typeof process, typeof env, typeof globalThis.process, JSON.stringify(Object.getOwnPropertyNames(globalThis))].join(' ');",
    { returns: expect.not.stringContaining(marker) },
  ],
  [
    "timers are absent",
    "return [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof queueMicrotask, typeof clearTimeout];",
    { returns: ["undefined", "undefined", "undefined", "undefined", "undefined"] },
  ],
  [
    "eval and Function exist but reach only the sandbox",
    "return [eval('typeof process'), (0, eval)('typeof require'), new Function('return typeof fetch')(), Function('return typeof setTimeout')()];",
    { returns: ["undefined", "undefined", "undefined", "undefined"] },
  ],
  [
    "Function('return process')() throws",
    "return Function('return process')();",
    { fails: /'process' is not defined/u },
  ],
  [
    "the bridge's host functions are not globals",
    "return ['send', 'log', 'settle', '__bridge'].map((name) => typeof globalThis[name]);",
    { returns: ["undefined", "undefined", "undefined", "undefined"] },
  ],
  [
    "tools cannot be replaced",
    "globalThis.tools = null; tools.call = null; return [Object.isFrozen(tools), typeof tools.call, Object.keys(tools)];",
    { returns: [true, "function", ["search", "describe", "call", "callValue"]] },
  ],
  [
    "tampering with the cell's own built-ins does not reach the host or break the result",
    "Promise.prototype.then = function () {}; JSON.stringify = () => 'forged'; Reflect.apply = () => 0; return { ok: 1 };",
    { returns: { ok: 1 } },
  ],
];

/** Objects the bridge hands into a cell, each the start of a `constructor.constructor` climb. */
const handedIn: Array<[string, string]> = [
  ["tools", "tools"],
  ["tools.search", "tools.search"],
  ["openclaw.tools.call", "openclaw.tools.call"],
  ["console", "console"],
  ["console.log", "console.log"],
  ["the promise tools.search returns", "tools.search('weather')"],
  ["a search result", "(await tools.search('weather'))[0]"],
  ["the result array of tools.search", "await tools.search('weather')"],
  ["the description from tools.describe", "await tools.describe('get_forecast')"],
  ["the envelope of tools.call", "await tools.call('get_forecast', { city: 'Oslo' })"],
  [
    "the content block of a call result",
    "(await tools.call('get_forecast', { city: 'Oslo' })).result.content[0]",
  ],
  ["a rejected tool error", "await tools.call('no_such_tool', {}).catch((error) => error)"],
  ["an error thrown by the sandbox itself", "(() => { try { null.x; } catch (error) { return error; } })()"],
];

describe("Code Mode escape suite: every probe fails inside the cell", () => {
  it.each(probes)("%s", async (_name, source, expectation) => {
    const outcome = await run(source);
    if ("fails" in expectation) {
      expect(outcome.status).toBe("failed");
      if (outcome.status === "failed") expect(outcome.error.message).toMatch(expectation.fails);
    } else {
      expect(outcome).toMatchObject({ status: "completed", value: expectation.returns });
    }
  });

  it("offers ECMAScript built-ins and the bridge names, nothing else", async () => {
    const outcome = await run("return Object.getOwnPropertyNames(globalThis);");
    expect(outcome.status).toBe("completed");
    const names = outcome.status === "completed" ? (outcome.value as string[]) : [];
    expect(names.filter((name) => !ALLOWED_GLOBALS.has(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(["console", "openclaw", "tools"]));
  });

  it.each(handedIn)(
    "climbing constructor.constructor from %s reaches only the sandbox",
    async (_name, expression) => {
      const outcome = await run(`
      const start = ${expression};
      const climbs = [start.constructor.constructor, Object.getPrototypeOf(start).constructor.constructor];
      const reach = (F) => { try { return F("return process")(); } catch (error) { return error.name + ": " + error.message; } };
      return climbs.map((F) => [F("return typeof process")(), F("return typeof require")(), F("return this === globalThis")(), reach(F)]);
    `);
      const sandboxOnly = ["undefined", "undefined", true, "ReferenceError: 'process' is not defined"];
      expect(outcome).toEqual({ status: "completed", value: [sandboxOnly, sandboxOnly], logs: [] });
    },
  );

  it("keeps prototype pollution inside the cell, also through arguments and values that carry __proto__", async () => {
    const outcome = await run(`
      Object.prototype.polluted = "yes";
      Array.prototype.polluted = "yes";
      const hostile = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}');
      await tools.call("echo_args", hostile);
      return hostile;
    `);
    expect(outcome.status).toBe("completed");
    const plain: Record<string, unknown> = {};
    expect(plain.polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
    const received = echoed.at(-1) as Record<string, unknown>;
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(Object.hasOwn(received, "__proto__")).toBe(true);
    const value = outcome.status === "completed" ? (outcome.value as Record<string, unknown>) : {};
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value.polluted).toBeUndefined();
  });
});

describe("Code Mode escape suite: nothing outside changed", () => {
  it("created no file", () => {
    expect(outcomes.length).toBeGreaterThan(probes.length);
    expect(existsSync(target)).toBe(false);
  });

  it("sent nothing to the listener on 127.0.0.1", () => {
    expect(connections).toBe(0);
  });

  it("leaked no environment variable of the parent into any outcome", () => {
    expect(JSON.stringify(outcomes)).not.toContain(marker);
  });

  it("kept the parent's globals intact", () => {
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
    expect(typeof Promise.prototype.then).toBe("function");
  });
});
