/**
 * Benchmarks by name, loaded on demand (one benchmark's imports never break another's run).
 * `npm run bench` runs them all in this order; `npm run bench -- quality latency` runs the named ones.
 */
const BENCHMARKS: Readonly<Record<string, () => Promise<unknown>>> = {
  quality: async () => (await import("./quality.js")).run(),
  latency: async () => (await import("./latency.js")).run(),
  payload: async () => (await import("./payload.js")).run(),
  "code-mode": async () => (await import("./code-mode.js")).run(),
  "mcp-tool-list": async () => (await import("./mcp-tool-list.js")).run(),
  "gateway-throughput": async () => (await import("./gateway-throughput.js")).run(),
  "session-log": async () => (await import("./session-log.js")).run(),
  "gateway-memory": async () => (await import("./gateway-memory.js")).run(),
  streaming: async () => (await import("./streaming.js")).run(),
  "mcp-like": async () => (await import("./mcp-like.js")).run(),
  "model-hub": async () => (await import("./model-hub.js")).run(),
  startup: async () => (await import("./startup.js")).run(),
  telemetry: async () => (await import("./telemetry.js")).run(),
  "run-setup": async () => (await import("./run-setup.js")).run(),
  "gateway-catalog-size": async () => (await import("./gateway-catalog-size.js")).run(),
  "session-list": async () => (await import("./session-list.js")).run(),
  agents: async () => (await import("./agents.js")).run(),
  "flow-files": async () => (await import("./flow-files.js")).run(),
  fleet: async () => (await import("./fleet.js")).run(),
};

const wanted = process.argv.slice(2).filter((name) => !name.startsWith("-"));
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(", ")}. Known: ${Object.keys(BENCHMARKS).join(", ")}.`);
  process.exit(1);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHMARKS)) {
  console.log(`\n## ${name}\n`);
  await BENCHMARKS[name]!();
}
