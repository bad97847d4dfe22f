import type { Context } from "hono";
import { stream } from "hono/streaming";
import type { Caller } from "../../runtime/http-guard/index.js";
import { type ConsoleRouteContext, loginRefusal, type Refusal, refuse } from "./console-request.js";
import {
  LIVE_APPROVALS_REREAD_MS,
  LIVE_HEARTBEAT_MS,
  LIVE_SESSION_REREAD_MS,
  LIVE_STREAM_MAX_MS,
  LIVE_WAKE_GAP_MS,
  MAX_LIVE_STREAMS,
  MAX_LIVE_STREAMS_PER_SESSION,
} from "./limits.js";
import type { ConsoleChange } from "./types.js";

/** One line of a live stream (NDJSON: one JSON object per line). */
export type LiveLine =
  /** Session events from index `from` on (the page already shows `from` of them). */
  | { type: "events"; from: number; events: unknown[] }
  /** The whole list of pending approvals the caller may decide, sent whenever it changed. */
  | { type: "approvals"; approvals: unknown[]; broker: boolean }
  /** Nothing changed for a while; the connection is alive. */
  | { type: "heartbeat" }
  /** The stream ends: signed out, the session went away, or the stream reached its age (open a new one). */
  | { type: "end"; reason: string };

/** Open live streams, per process and per console session. */
class LiveStreams {
  readonly #perSession = new Map<string, number>();
  #total = 0;

  /** Takes a slot for console session `id`; undefined when a cap is reached. */
  open(id: string): (() => void) | undefined {
    const held = this.#perSession.get(id) ?? 0;
    if (this.#total >= MAX_LIVE_STREAMS || held >= MAX_LIVE_STREAMS_PER_SESSION) return undefined;
    this.#total += 1;
    this.#perSession.set(id, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= 1;
      const left = (this.#perSession.get(id) ?? 1) - 1;
      if (left <= 0) this.#perSession.delete(id);
      else this.#perSession.set(id, left);
    };
  }
}

/** What one poll of a live stream answers: a line to write, or nothing new. */
type Poll = () => Promise<LiveLine | undefined>;

/** Which changes told by `ConsoleBackend.watch` make a stream read again at once. */
type Wakes = (change: ConsoleChange) => boolean;

/**
 * `GET /console/api/live/session?agent=&key=&after=` and `GET /console/api/live/approvals`: pushed updates for
 * the timeline and approvals pages, as NDJSON (`application/x-ndjson`, one `LiveLine` per line) that the page
 * reads with `fetch()` and a stream reader, so the request carries the CSRF header like every other read. The
 * checks are the reads' own: the session cookie and CSRF token, then the first read through the backend
 * (scope, ownership: another key's session is the same 404) before the stream opens. The stream reads again
 * when `ConsoleBackend.watch` tells of a change (this process's appends and approvals, and on PostgreSQL
 * every gateway's, announced by NOTIFY), and every `LIVE_SESSION_REREAD_MS` / `LIVE_APPROVALS_REREAD_MS`
 * anyway (for a notification lost while the LISTEN connection was down), and writes only what changed. Bounded: at most
 * `MAX_LIVE_STREAMS` per process and `MAX_LIVE_STREAMS_PER_SESSION` per console session (429 past them), a
 * heartbeat line every `LIVE_HEARTBEAT_MS`, and an end line after `LIVE_STREAM_MAX_MS` or once the console
 * session is signed out or expired; a client that goes away ends it at the next write or wait.
 */
export function registerLiveRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, sessions, sessionWithCsrf } = context;
  const streams = new LiveStreams();

  /** True while the console session is signed in and its key still configured on this gateway. */
  const stillSignedIn = async (id: string, keyId: string): Promise<boolean> =>
    backend.callerFor(keyId) !== undefined && (await sessions.isSignedIn(id));

  /** The signed-in caller and console session id, or the reads' refusal. */
  const signedIn = async (c: Context): Promise<{ caller: Caller; id: string } | Refusal> => {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return session;
    if (session.caller === undefined) return loginRefusal();
    return { caller: session.caller, id: session.id };
  };

  /** The stream: `first` at once, then each poll's line when it has one, until the client or session goes. */
  const liveResponse = (
    c: Context,
    who: { caller: Caller; id: string },
    first: LiveLine,
    poll: Poll,
    everyMs: number,
    wakes: Wakes,
  ) => {
    const release = streams.open(who.id);
    if (release === undefined) return refuse(c, tooManyStreams());
    const response = stream(c, async (out) => {
      const gone = new AbortController();
      out.onAbort(() => gone.abort());
      c.req.raw.signal.addEventListener("abort", () => gone.abort(), { once: true });
      // A change made through this process ends the current wait early (a burst of them, one read).
      const alarm = new Alarm();
      const unwatch = backend.watch?.((change) => {
        if (wakes(change)) alarm.ring();
      });
      const write = (line: LiveLine) => out.write(`${JSON.stringify(line)}\n`);
      try {
        await write(first);
        const started = Date.now();
        let lastWrite = started;
        let lastRead = Date.now();
        while (!gone.signal.aborted) {
          await alarm.wait(everyMs, gone.signal);
          // At most one read per LIVE_WAKE_GAP_MS, however many changes rang.
          await sleep(lastRead + LIVE_WAKE_GAP_MS - Date.now(), gone.signal);
          if (gone.signal.aborted) break;
          lastRead = Date.now();
          // The console session is looked up again (without counting as use, so an open page does not keep an
          // idle session alive): signed out, expired, or its key no longer configured ends the stream.
          if (!(await stillSignedIn(who.id, who.caller.keyId))) {
            await write({ type: "end", reason: "signed out" });
            break;
          }
          if (Date.now() - started >= LIVE_STREAM_MAX_MS) {
            await write({ type: "end", reason: "the stream reached its age: open a new one" });
            break;
          }
          let line: LiveLine | undefined;
          try {
            line = await poll();
          } catch (error) {
            await write({ type: "end", reason: reasonOf(error) });
            break;
          }
          if (line !== undefined) {
            await write(line);
            lastWrite = Date.now();
          } else if (Date.now() - lastWrite >= LIVE_HEARTBEAT_MS) {
            await write({ type: "heartbeat" });
            lastWrite = Date.now();
          }
        }
      } finally {
        unwatch?.();
        release();
      }
    });
    response.headers.set("Content-Type", "application/x-ndjson; charset=utf-8");
    response.headers.set("X-Accel-Buffering", "no");
    response.headers.delete("Transfer-Encoding");
    return response;
  };

  app.get(`${api}/live/session`, async (c) => {
    const who = await signedIn(c);
    if ("status" in who) return refuse(c, who);
    const agent = c.req.query("agent") ?? "";
    const key = c.req.query("key") ?? "";
    const after = readAfter(c.req.query("after"));
    if (after === undefined) return refuse(c, badAfter());
    // The first read makes every check the timeline's read makes (a refusal is the gateway's error).
    const read = async () =>
      ((await backend.readSession(who.caller, agent, key)) as { events: unknown[] }).events;
    const events = await read();
    let shown = Math.min(after, events.length);
    const first: LiveLine = { type: "events", from: shown, events: events.slice(shown) };
    shown = events.length;
    return liveResponse(
      c,
      who,
      first,
      async () => {
        const now = await read();
        if (now.length <= shown) return undefined;
        const line: LiveLine = { type: "events", from: shown, events: now.slice(shown) };
        shown = now.length;
        return line;
      },
      LIVE_SESSION_REREAD_MS,
      // Appends to a session of this agent whose stored key ends with the name (the caller's namespace
      // prefixes it); a spurious wake costs one read, a missed one waits for the re-read.
      (change) => change.kind === "session" && change.agentId === agent && change.sessionKey.endsWith(key),
    );
  });

  app.get(`${api}/live/approvals`, async (c) => {
    const who = await signedIn(c);
    if ("status" in who) return refuse(c, who);
    const approvals = backend.approvals;
    const read = async (): Promise<LiveLine> =>
      approvals === undefined
        ? { type: "approvals", approvals: [], broker: false }
        : {
            type: "approvals",
            approvals: ((await approvals.pending(who.caller)) as { approvals: unknown[] }).approvals,
            broker: true,
          };
    const first = await read();
    let last = JSON.stringify(first);
    return liveResponse(
      c,
      who,
      first,
      async () => {
        const line = await read();
        const text = JSON.stringify(line);
        if (text === last) return undefined;
        last = text;
        return line;
      },
      LIVE_APPROVALS_REREAD_MS,
      (change) => change.kind === "approvals",
    );
  });
}

/** `after`: how many events the page already shows (absent: none). */
function readAfter(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return 0;
  if (!/^\d{1,9}$/u.test(value)) return undefined;
  return Number(value);
}

/** A wait that a ring ends early; a ring while nobody waits ends the next wait at once. */
class Alarm {
  #rung = false;
  #wake: (() => void) | undefined;

  ring(): void {
    this.#rung = true;
    this.#wake?.();
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    if (!this.#rung) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          this.#wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener("abort", done, { once: true });
        this.#wake = done;
        if (signal.aborted) done();
      });
    }
    this.#rung = false;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

function tooManyStreams(): Refusal {
  return {
    status: 429,
    code: "too_many_live_streams",
    message: `too many live views are open (at most ${MAX_LIVE_STREAMS_PER_SESSION} per console session, ${MAX_LIVE_STREAMS} per gateway): close another console tab, or reload later.`,
  };
}

function badAfter(): Refusal {
  return {
    status: 400,
    code: "invalid_request",
    message: "after must be the number of events the page already shows (a whole number), or absent.",
  };
}
