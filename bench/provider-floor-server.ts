/**
 * The provider floor of a gateway run, as its own process for `gateway-throughput`: an HTTP server (the
 * gateway's own stack, `@hono/node-server` + hono) whose one route reads a JSON body, sends the recorded
 * provider bodies of one run to the provider with the `openai` client configured as toolsift's provider
 * configures it (same timeout, retries, byte-counting fetch), and answers JSON. What a gateway run costs
 * beyond this is the gateway's own work: catalog, search, controls, executor, session log, redaction.
 *
 * Usage: `node --import tsx bench/provider-floor-server.ts <provider base URL> <bodies.json>`; prints
 * `listening on <url>` once ready.
 */
import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import OpenAI from "openai";
import { byteCountingFetch, recordBytesInto } from "../src/runtime/providers/request-bytes.js";

const [baseURL, bodiesPath] = process.argv.slice(2);
if (!baseURL || !bodiesPath)
  throw new Error("usage: provider-floor-server <provider base URL> <bodies.json>");
// Parsed once: the gateway builds its bodies as objects too, it never parses them.
const bodies = (JSON.parse(readFileSync(bodiesPath, "utf8")) as string[]).map((body) => JSON.parse(body));
const client = new OpenAI({
  apiKey: "mock-key",
  baseURL,
  timeout: 120_000,
  maxRetries: 2,
  fetch: byteCountingFetch(globalThis.fetch),
});

const app = new Hono();
app.post("/run", async (c) => {
  await c.req.json();
  let sent = 0;
  for (const body of bodies) {
    const recorder = { bytes: 0 };
    await client.post<unknown>("/responses", { body, ...recordBytesInto(recorder) });
    sent += recorder.bytes;
  }
  return c.json({ ok: true, sent });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
