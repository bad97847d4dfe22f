import { describe, expect, it } from "vitest";
import { type BytesRecorder, byteCountingFetch, recordBytesInto } from "./request-bytes.js";

describe("byteCountingFetch", () => {
  it("records the body's UTF-8 size in the request's own recorder and never forwards the recorder key", async () => {
    const forwarded: Array<RequestInit | undefined> = [];
    const inner = (async (_input: unknown, init?: RequestInit) => {
      forwarded.push(init);
      return new Response("{}");
    }) as typeof fetch;
    const counting = byteCountingFetch(inner);
    const first: BytesRecorder = { bytes: 0 };
    const second: BytesRecorder = { bytes: 0 };
    await Promise.all([
      counting("http://x", { method: "POST", body: "é!", ...recordBytesInto(first).fetchOptions }),
      counting("http://x", { method: "POST", body: "plain", ...recordBytesInto(second).fetchOptions }),
    ]);
    expect(first.bytes).toBe(3);
    expect(second.bytes).toBe(5);
    for (const init of forwarded) {
      expect(Object.getOwnPropertySymbols(init ?? {})).toEqual([]);
      expect(init?.method).toBe("POST");
    }
  });

  it("passes a request without a recorder through untouched", async () => {
    const init: RequestInit = { method: "GET" };
    let seen: RequestInit | undefined;
    const counting = byteCountingFetch((async (_input: unknown, given?: RequestInit) => {
      seen = given;
      return new Response("{}");
    }) as typeof fetch);
    await counting("http://x", init);
    expect(seen).toBe(init);
  });
});
