/**
 * The JavaScript evaluated inside QuickJS before a cell: a function expression that receives the two host
 * functions (`send(method, argsJson) -> Promise<string>` and `log(level, text)`), installs `tools`,
 * `openclaw.tools` and `console` as frozen globals, and returns `runCell(source)`. The host functions are
 * never globals, so a cell reaches the bridge only through `tools`. Only strings cross into and out of it.
 *
 * `runCell` compiles the source as an async function body (`new AsyncFunction(source)`, so a source cannot
 * break out of the wrapper) and reports its end through the third host function, `settle("value", json)`
 * (`null` for `undefined`) or `settle("error", thrown)`. Everything it relies on is captured before the cell
 * runs, so a cell that replaces `JSON`, `Promise.prototype.then` or `Reflect.apply` only confuses itself.
 */
export const SANDBOX_PRELUDE = `(function (send, log, settle) {
  "use strict";
  const apply = Reflect.apply;
  const promiseThen = Promise.prototype.then;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const ErrorConstructor = Error;
  const StringConstructor = String;
  const AsyncFunction = (async function () {}).constructor;

  const toolError = (text) => {
    let info;
    try { info = parse(text); } catch (ignored) { info = { code: "INTERNAL", message: "The bridge answered with an unreadable error." }; }
    const error = new ErrorConstructor(info.message);
    error.name = "ToolsiftError";
    error.code = info.code;
    return error;
  };
  const request = (method, args) => {
    let text;
    try { text = stringify(args); } catch (cause) {
      return Promise.reject(toolError(stringify({ code: "INVALID_REQUEST", message: "Arguments of tools." + method + " must be JSON data: " + cause.message })));
    }
    return apply(promiseThen, send(method, text), [(answer) => parse(answer), (error) => { throw toolError(error); }]);
  };
  const firstText = (result) => {
    const blocks = result && result.content;
    if (Array.isArray(blocks)) for (const block of blocks) if (block && typeof block.text === "string") return block.text;
    return "The tool reported an error.";
  };

  const tools = freeze({
    search: (query, options) => request("search", options === undefined ? [query] : [query, options]),
    describe: (id) => request("describe", [id]),
    call: (id, args) => request("call", args === undefined ? [id] : [id, args]),
    callValue: (id, args) =>
      apply(promiseThen, request("call", args === undefined ? [id] : [id, args]), [(envelope) => {
        const result = envelope && envelope.result;
        if (result && result.isError === true) {
          const details = result.details;
          const code = details && details.error && typeof details.error.code === "string" ? details.error.code : "TOOL_FAILED";
          throw toolError(stringify({ code, message: firstText(result) }));
        }
        return result ? result.details : undefined;
      }]),
  });

  const format = (value) => {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      if (typeof text === "string") return text;
    } catch (ignored) {}
    return StringConstructor(value);
  };
  const writer = (level) => (...values) => { log(level, values.map(format).join(" ")); };
  const consoleObject = freeze({ log: writer("log"), info: writer("info"), warn: writer("warn"), error: writer("error") });

  defineProperty(globalThis, "tools", { value: tools, enumerable: true });
  defineProperty(globalThis, "openclaw", { value: freeze({ tools }), enumerable: true });
  defineProperty(globalThis, "console", { value: consoleObject, enumerable: true });

  const valueError = (message) => {
    const error = new ErrorConstructor(message);
    error.name = "ValueError";
    error.code = "INVALID_VALUE";
    return error;
  };
  const onValue = (value) => {
    let text;
    try { text = value === undefined ? "null" : stringify(value); } catch (error) {
      settle("error", valueError("The cell's value is not JSON-serialisable (" + error.message + "); return plain data: objects, arrays, strings, numbers, booleans or null."));
      return;
    }
    if (typeof text !== "string") {
      settle("error", valueError("The cell's value is not JSON-serialisable (a " + typeof value + "); return plain data: objects, arrays, strings, numbers, booleans or null."));
      return;
    }
    settle("value", text);
  };
  const onError = (error) => { settle("error", error); };
  return function runCell(source) {
    let body;
    try { body = new AsyncFunction(source); } catch (error) { onError(error); return; }
    apply(promiseThen, apply(body, undefined, []), [onValue, onError]);
  };
})`;
