// Reads a console live stream (`/console/api/live/*`): NDJSON, one JSON object per line, over fetch() with the
// CSRF header (EventSource could not send it). The stream is opened again after it ends or fails (a gateway
// restart, a stream that reached its age), a little later each time it fails in a row; a refusal (signed out,
// no scope, not found) stops it. Every value read is untrusted: the callers draw it as text.

import { apiHeaders } from "./api.js";

const RETRY_MS = 1000;
const MAX_RETRY_MS = 15000;

/**
 * Follows the stream at `/console/api/live${path()}` (asked again before each reopening, so it can carry how
 * much the page already shows), telling `onLine` each line. `onStop(error)` hears a refusal. Returns a
 * function that stops following.
 */
export function follow(path, onLine, onStop) {
  const stop = new AbortController();
  let failures = 0;
  const run = async () => {
    while (!stop.signal.aborted) {
      let response;
      try {
        response = await fetch(`/console/api/live${path()}`, {
          headers: apiHeaders(),
          credentials: "same-origin",
          cache: "no-store",
          signal: stop.signal,
        });
      } catch {
        if (stop.signal.aborted) return;
        await wait(retryMs(++failures), stop.signal);
        continue;
      }
      if (!response.ok) {
        let data;
        try {
          data = await response.json();
        } catch {
          data = undefined;
        }
        if (response.status === 429 || response.status >= 500) {
          await wait(retryMs(++failures), stop.signal);
          continue;
        }
        const error = new Error(data?.error?.message ?? `the gateway answered ${response.status}`);
        error.status = response.status;
        onStop?.(error);
        return;
      }
      failures = 0;
      try {
        await readLines(response, onLine, stop.signal);
      } catch {
        failures += 1;
      }
      if (!stop.signal.aborted) await wait(retryMs(failures), stop.signal);
    }
  };
  void run();
  return () => stop.abort();
}

async function readLines(response, onLine, signal) {
  const reader = response.body.getReader();
  signal.addEventListener("abort", () => void reader.cancel(), { once: true });
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const text = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (text !== "") onLine(JSON.parse(text));
      newline = buffered.indexOf("\n");
    }
  }
}

function retryMs(failures) {
  return Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** Math.max(0, failures - 1));
}

function wait(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
