import { SANDBOX_PRELUDE } from "./sandbox-prelude.js";

/** A cell-like program run once in a throwaway context before `ready`, so its code paths are compiled. */
const WARM_UP_SOURCE = `new (async function () {}).constructor(
  "const o = JSON.parse(JSON.stringify({ a: [1, 'b'] })); await null; return Object.keys(o).map(String).join();"
)().then((value) => value, (error) => error)`;

/**
 * The program of an isolated child, as ES module text run with `node --input-type=module -e`. It is text,
 * not a file, so the same program runs from the sources (tests) and the build, and the child needs no read
 * grant for a script of its own. argv: the file URLs of quickjs-emscripten-core and of the release-sync
 * WASM variant, then the JSON limits `{ memoryLimitBytes, wasmMemoryMaxBytes, maxStackBytes, maxBridgeCalls,
 * maxLogBytes, maxValueBytes }`.
 *
 * It loads QuickJS, builds one runtime with its memory and stack limits and an interrupt handler, installs
 * the prelude, says `ready`, runs exactly one cell, reports `done` and exits. Every IPC message in either
 * direction is one JSON string (protocol.ts). It never parses tool data itself: search results and call
 * envelopes cross as JSON text straight into QuickJS, where the prelude parses them.
 */
export const CELL_HOST_SOURCE = `
const [coreUrl, variantUrl, limitsText] = process.argv.slice(1);
const limits = JSON.parse(limitsText);
const PRELUDE = ${JSON.stringify(SANDBOX_PRELUDE)};
const CODE_PATTERN = /^[A-Z][A-Z0-9_]{0,39}$/;
const WARM_UP = ${JSON.stringify(WARM_UP_SOURCE)};

const post = (message, then) => {
  if (!process.connected) return;
  try { process.send(JSON.stringify(message), then); } catch { /* the parent is gone */ }
};

const core = await import(coreUrl);
const variant = (await import(variantUrl)).default;
// The WebAssembly memory is capped too: ArrayBuffer storage is not counted by QuickJS's own memory limit.
const wasmMemory = new WebAssembly.Memory({ initial: 256, maximum: Math.ceil(limits.wasmMemoryMaxBytes / 65536) });
const quickjs = await core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmMemory }));
const runtime = quickjs.newRuntime();
runtime.setMemoryLimit(limits.memoryLimitBytes);
runtime.setMaxStackSize(limits.maxStackBytes);
// Warm-up in a throwaway context of the same runtime: the first parse, async function, promise job and JSON
// round trip compile their WebAssembly code before the child says ready, not during the cell.
{
  const warm = runtime.newContext();
  const result = warm.evalCode(WARM_UP);
  if (!result.error) runtime.executePendingJobs();
  (result.error ?? result.value).dispose();
  warm.dispose();
}
const vm = runtime.newContext();

let deadline = Number.POSITIVE_INFINITY;
let stopReason = null;
let finished = false;
let started = false;
let timer;
runtime.setInterruptHandler(() => finished || stopReason !== null || Date.now() > deadline);

const finish = (message) => {
  if (finished) return;
  finished = true;
  clearTimeout(timer);
  post(message, () => process.exit(0));
};
const fail = (code, message) => finish({ type: "done", ok: false, error: { code, message } });
const stop = (code, message) => {
  if (stopReason === null) stopReason = { code, message };
  fail(code, message);
};
const memoryMessage = () =>
  "The cell used more than its memory limit of " + limits.memoryLimitBytes + " bytes and was stopped; keep less data in memory.";
const timeoutMessage = () =>
  "The cell ran longer than its limit of " + limits.timeoutMs + " ms and was stopped; do less per cell, or start long work with a smaller yieldMs and use wait.";

const readString = (handle, key) => {
  try {
    const property = vm.getProp(handle, key);
    return vm.typeof(property) === "string" ? vm.getString(property) : undefined;
  } catch {
    return undefined;
  }
};
// The AsyncFunction constructor puts two lines of its own before the cell's body.
const BODY_LINE_OFFSET = 2;
const cellLine = (stack) => {
  const where = typeof stack === "string" ? /<input>:([0-9]+):[0-9]+/u.exec(stack) : null;
  const line = where ? Number(where[1]) - BODY_LINE_OFFSET : 0;
  return line > 0 ? " (line " + line + " of the cell)" : "";
};
const failWithThrown = (handle) => {
  if (stopReason !== null) return fail(stopReason.code, stopReason.message);
  if (Date.now() > deadline) return fail("TIMEOUT", timeoutMessage());
  let name;
  let message;
  let code;
  const kind = handle ? vm.typeof(handle) : "undefined";
  if (kind === "object" || kind === "function") {
    name = readString(handle, "name");
    message = readString(handle, "message");
    code = readString(handle, "code");
  } else {
    try { message = String(vm.dump(handle)); } catch { message = undefined; }
  }
  let isNull = false;
  if (kind === "object" && message === undefined && name === undefined) {
    try { isNull = vm.dump(handle) === null; } catch { /* unreadable */ }
  }
  if (name === "InternalError" && message === "interrupted") return fail("TIMEOUT", timeoutMessage());
  if (name === "InternalError" && message === "out of memory") return fail("MEMORY_LIMIT", memoryMessage());
  // QuickJS throws null when it cannot even allocate its "out of memory" error.
  if (isNull) return fail("MEMORY_LIMIT", memoryMessage() + " (The cell failed with null, which is how QuickJS reports exhausted memory; throw Error objects, not null.)");
  if (typeof code === "string" && CODE_PATTERN.test(code)) return fail(code, message ?? code);
  const text = message === undefined ? "The cell threw a value that could not be read." : message;
  fail("CELL_ERROR", (name ? name + ": " + text : text) + cellLine(kind === "object" ? readString(handle, "stack") : undefined));
};

const pending = new Map();
let nextCallId = 1;
let bridgeCalls = 0;
let logBytes = 0;

const sendHandle = vm.newFunction("send", (methodHandle, argsHandle) => {
  const deferred = vm.newPromise();
  if (finished || stopReason !== null) return deferred.handle;
  bridgeCalls += 1;
  if (bridgeCalls > limits.maxBridgeCalls) {
    stop("BRIDGE_CALL_LIMIT", "The cell made more than " + limits.maxBridgeCalls + " tool bridge calls and was stopped; search once, then call the tools you need.");
    return deferred.handle;
  }
  const id = nextCallId++;
  pending.set(id, deferred);
  post({ type: "call", id, method: vm.getString(methodHandle), args: vm.getString(argsHandle) });
  return deferred.handle;
});
const logHandle = vm.newFunction("log", (levelHandle, textHandle) => {
  if (finished || logBytes > limits.maxLogBytes) return;
  const level = vm.getString(levelHandle);
  let text = vm.getString(textHandle);
  const room = limits.maxLogBytes - logBytes + 1;
  if (text.length > room) text = text.slice(0, room);
  logBytes += Buffer.byteLength(text) + 1;
  post({ type: "log", level, text });
});
const settleHandle = vm.newFunction("settle", (kindHandle, payloadHandle) => {
  if (finished) return;
  if (vm.getString(kindHandle) !== "value") return failWithThrown(payloadHandle);
  const text = vm.getString(payloadHandle);
  if (Buffer.byteLength(text) > limits.maxValueBytes) {
    return fail("INVALID_VALUE", "The cell's value is larger than " + limits.maxValueBytes + " bytes of JSON; return a summary and log details sparingly.");
  }
  finish({ type: "done", ok: true, value: text });
});

const factory = vm.unwrapResult(vm.evalCode(PRELUDE, "toolsift-prelude.js"));
const runCell = vm.unwrapResult(vm.callFunction(factory, vm.undefined, sendHandle, logHandle, settleHandle));

// A host-level exception out of QuickJS (the V8 stack overflowing under deep recursion inside WASM) leaves
// the runtime unusable: report it and touch QuickJS no more (the child is single-use anyway).
const hostFailure = (error) => {
  if (error instanceof RangeError && /call stack/u.test(error.message)) {
    return fail("CELL_ERROR", "RangeError: stack overflow (the cell recursed too deeply)");
  }
  if (error instanceof WebAssembly.RuntimeError && /memory/u.test(error.message)) return fail("MEMORY_LIMIT", memoryMessage());
  fail("SANDBOX_FAILURE", "The cell's sandbox failed (" + (error && error.message) + "); run the cell again.");
};
const guarded = (work) => {
  try {
    return work();
  } catch (error) {
    hostFailure(error);
    return undefined;
  }
};
process.on("uncaughtException", (error) => {
  hostFailure(error);
  setTimeout(() => process.exit(1), 100).unref();
});

const pump = () => {
  if (finished) return;
  const result = guarded(() => runtime.executePendingJobs());
  if (!result || finished) return;
  if (result.error) failWithThrown(result.error);
  else if (stopReason !== null) fail(stopReason.code, stopReason.message);
};

const start = (message) => {
  if (started) return;
  started = true;
  limits.timeoutMs = message.timeoutMs;
  deadline = Date.now() + message.timeoutMs;
  timer = setTimeout(() => stop("TIMEOUT", timeoutMessage()), message.timeoutMs);
  let sourceHandle;
  try {
    sourceHandle = vm.newString(message.source);
  } catch {
    return fail("MEMORY_LIMIT", "The cell's source does not fit in the sandbox's memory.");
  }
  const result = guarded(() => vm.callFunction(runCell, vm.undefined, sourceHandle));
  if (!result || finished) return;
  if (result.error) return failWithThrown(result.error);
  pump();
};

const answer = (message) => {
  const deferred = pending.get(message.id);
  if (!deferred || finished) return;
  pending.delete(message.id);
  try {
    if (message.ok) deferred.resolve(vm.newString(message.value));
    else deferred.reject(vm.newString(JSON.stringify(message.error)));
  } catch {
    return stop("MEMORY_LIMIT", memoryMessage());
  }
  pump();
};

process.on("message", (raw) => {
  let message;
  try { message = JSON.parse(raw); } catch { return; }
  if (message && message.type === "run" && typeof message.source === "string") start(message);
  else if (message && message.type === "reply") answer(message);
});
process.on("disconnect", () => process.exit(0));
post({ type: "ready" });
`;
