import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { startTestGateway } from "./gateway.test-support.js";

/**
 * Headers that never need a preflight: CORS-safelisted ones, and forbidden ones the browser (or Node's fetch)
 * sets itself, which a page's script cannot send.
 */
const NO_PREFLIGHT = new Set([
  "accept",
  "accept-language",
  "content-language",
  "accept-encoding",
  "host",
  "connection",
  "content-length",
]);
const PAGE = "http://localhost:5173";

/** The header names the official `openai` client sends with `responses.create`, read off a real request. */
async function openaiClientHeaders(): Promise<string[]> {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((request, response) => {
    seen = request.headers;
    response.writeHead(400, { "content-type": "application/json" });
    response.end('{"error":{"message":"captured","type":"invalid_request_error","param":null,"code":null}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const client = new OpenAI({
    baseURL: `http://127.0.0.1:${port}/v1`,
    apiKey: "page-key",
    maxRetries: 0,
    organization: "org-x",
    project: "proj-x",
  });
  await client.responses.create({ model: "toolsift", input: "hi" }).catch(() => undefined);
  return Object.keys(seen).filter((name) => !NO_PREFLIGHT.has(name) && !name.startsWith("sec-"));
}

/** A test gateway that lists PAGE in allowOrigins; its URL. */
async function startGateway() {
  return (await startTestGateway({ allowOrigins: [PAGE] })).url;
}

describe("gateway CORS for a listed origin", () => {
  it("a preflight allows every header the official openai client sends", async () => {
    const names = await openaiClientHeaders();
    expect(names).toEqual(expect.arrayContaining(["authorization", "content-type", "x-stainless-os"]));
    const url = await startGateway();
    const response = await fetch(`${url}/v1/responses`, {
      method: "OPTIONS",
      headers: {
        origin: PAGE,
        "access-control-request-method": "POST",
        "access-control-request-headers": [
          ...names,
          "x-toolsift-agent",
          "x-toolsift-session",
          "traceparent",
        ].join(","),
      },
    });
    expect(response.status).toBe(204);
    const allowed = (response.headers.get("access-control-allow-headers") ?? "").split(", ");
    for (const name of [...names, "x-toolsift-agent", "x-toolsift-session", "traceparent"])
      expect(allowed).toContain(name);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, OPTIONS");
  });

  it("a run from the listed origin is answered with the origin and readable toolsift headers", async () => {
    const url = await startGateway();
    const response = await fetch(`${url}/v1/responses`, {
      method: "POST",
      headers: { origin: PAGE, "content-type": "application/json", "x-toolsift-session": "page-1" },
      body: JSON.stringify({ input: "hi" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(response.headers.get("vary")).toContain("Origin");
    expect(response.headers.get("access-control-expose-headers")).toBe(
      "x-toolsift-agent, x-toolsift-session",
    );
    expect(response.headers.get("x-toolsift-session")).toBe("page-1");
  });

  it("an error for the listed origin carries CORS headers too, so the page can read it", async () => {
    const url = await startGateway();
    const response = await fetch(`${url}/v1/responses`, {
      method: "POST",
      headers: { origin: PAGE, "content-type": "application/json" },
      body: "{bad",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
  });
});
