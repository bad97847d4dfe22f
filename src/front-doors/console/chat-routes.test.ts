import { describe, expect, it, onTestFinished } from "vitest";
import type { Caller } from "../../runtime/http-guard/index.js";
import { serveApp } from "../gateway/serve-app.js";
import { CHAT_STREAM_TYPE } from "./chat-routes.js";
import { consoleClient } from "./console-client.test-support.js";
import { CSRF_HEADER, SESSION_COOKIE } from "./console-paths.js";
import { createConsoleRoutes } from "./create-console.js";
import { fakeConsoleBackend } from "./fake-backend.test-support.js";
import type { ConsoleBackend, ConsoleChatFrame } from "./types.js";

// The chat route's framing and its Stop, over real HTTP with a backend whose run is a generator the test
// controls: each frame is one NDJSON line written as it comes, and a client that aborts its fetch stops the
// frames (which, on the gateway, stops reading the run's events and cancels it).

const TOKEN = "tsk-chat-route-0123456789abcdef";
const CALLER: Caller = { keyId: "alice", scopes: ["runs"], trusted: false };

function backendWith(frames: () => AsyncGenerator<ConsoleChatFrame>): ConsoleBackend {
  return fakeConsoleBackend(
    { [TOKEN]: CALLER },
    { chat: async () => ({ agent: "main", session: "s1", frames: frames() }) },
  );
}

async function serve(backend: ConsoleBackend) {
  const listener = await serveApp(createConsoleRoutes({ backend, log: () => {} }), {
    port: 0,
    host: "127.0.0.1",
    log: () => {},
  });
  onTestFinished(() => listener.close());
  const client = consoleClient(listener.url);
  const login = await client.login(TOKEN);
  expect(login.status).toBe(200);
  const post = (signal?: AbortSignal) =>
    fetch(`${listener.url}/console/api/chat`, {
      method: "POST",
      headers: {
        [CSRF_HEADER]: String(login.body.csrf),
        cookie: `${SESSION_COOKIE}=${client.cookie}`,
        origin: listener.url,
        "content-type": "application/json",
      },
      body: JSON.stringify({ agent: "main", input: "hi" }),
      ...(signal === undefined ? {} : { signal }),
    });
  return { post };
}

describe("POST /console/api/chat", () => {
  it("answers NDJSON, one frame per line, each written as the run produces it", async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { post } = await serve(
      backendWith(async function* () {
        yield { type: "start", agent: "main", session: "s1", runId: "run_1", model: "mock/m" };
        yield { type: "text", delta: "a line\nwith <b>markup</b>" };
        await held;
        yield { type: "end", status: "completed" };
      }),
    );
    const response = await post();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(CHAT_STREAM_TYPE);
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    // The first two frames arrive while the run still holds its end back.
    while (text.split("\n").length < 3) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) throw new Error("the stream ended early");
      text += chunk.value;
    }
    release?.();
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += chunk.value;
    }
    const lines = text.split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).map((line) => JSON.parse(line) as unknown)).toEqual([
      { type: "start", agent: "main", session: "s1", runId: "run_1", model: "mock/m" },
      { type: "text", delta: "a line\nwith <b>markup</b>" },
      { type: "end", status: "completed" },
    ]);
  });

  it("a client that aborts its fetch stops the frames (the run's reader)", async () => {
    let stopped = false;
    const { post } = await serve(
      backendWith(async function* () {
        try {
          yield { type: "start", agent: "main", session: "s1", runId: "run_1", model: "mock/m" };
          for (;;) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            yield { type: "text", delta: "." };
          }
        } finally {
          stopped = true;
        }
      }),
    );
    const abort = new AbortController();
    const response = await post(abort.signal);
    const reader = response.body?.getReader();
    await reader?.read();
    abort.abort();
    await expect.poll(() => stopped, { timeout: 10_000 }).toBe(true);
  });
});
