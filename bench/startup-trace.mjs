// Preload for bench/startup.ts: `node --import ./bench/startup-trace.mjs …` appends one JSON line per module the
// process loads to the file named by STARTUP_TRACE_FILE, with the module that first asked for it:
//   {"kind":"esm","url":"file:///…/zod/v4/index.js","parent":"file:///…/config-schema.js"}
//   {"kind":"cjs","url":"file:///…/ajv/dist/core.js","parent":"file:///…/ajv/dist/ajv.js"}
// ESM: a resolve hook (module.register, run on the loader thread by Node 20) sees every import specifier and
// what it resolves to, including CommonJS files that ESM imports. CommonJS: `require` inside CommonJS code
// (ajv's internals) never reaches that hook, so Module._load is wrapped here to record those too. Node
// builtins are left out. The trace slows the process down: timings are taken from runs without it.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.STARTUP_TRACE_FILE;
if (file) {
  register("./startup-trace-hooks.mjs", import.meta.url, { data: { file } });
  const Module = createRequire(import.meta.url)("node:module");
  const load = Module._load;
  Module._load = function tracedLoad(request, parent, isMain) {
    if (!Module.isBuiltin(request)) {
      try {
        const resolved = Module._resolveFilename(request, parent, isMain);
        const line = {
          kind: "cjs",
          url: pathToFileURL(resolved).href,
          parent: parent?.filename ? pathToFileURL(parent.filename).href : null,
        };
        appendFileSync(file, `${JSON.stringify(line)}\n`);
      } catch {
        // Unresolvable: the real load below throws the error the program expects.
      }
    }
    return load.apply(this, [request, parent, isMain]);
  };
}
