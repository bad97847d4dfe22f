import type { Context } from "hono";
import type { LogRingReader } from "../../runtime/environment/index.js";
import { type ConsoleRouteContext, loginRefusal, type Refusal, refuse } from "./console-request.js";
import type { ConsoleSession } from "./console-sessions.js";
import { MAX_FILTER_CHARS } from "./limits.js";

/** Lines in one page of `GET /console/api/logs`. */
const LOG_PAGE_LINES = 200;

/** Lines the live tail reads from the ring at a time (one chunk of the stream). */
const LOG_STREAM_BATCH_LINES = 100;

/** Chunks a live tail queues for a client that reads slowly; past it, it stops reading the ring until the client catches up. */
const LOG_STREAM_QUEUED_CHUNKS = 8;

/** A live tail writes a heartbeat this often, and checks then that its console session is still signed in: 15 s. */
const LOG_STREAM_HEARTBEAT_MS = 15_000;

/** Live tails open at once in this gateway; one more is refused (429) until one closes. */
const LOG_STREAM_MAX_OPEN = 8;

/** The stream's media type: one JSON object per line (NDJSON). */
const NDJSON = "application/x-ndjson; charset=utf-8";

/** Frames of the live tail, one JSON object per line. */
type LogStreamFrame =
  | { type: "open"; next: number }
  | { type: "line"; seq: number; time: string; level?: string; text: string }
  | { type: "missed"; count: number }
  | { type: "heartbeat"; time: string }
  | { type: "end"; reason: string };

/**
 * The Logs page's reads, admin only: `GET /console/api/logs?after=&text=` (a page of the gateway's recent log
 * lines after a cursor, filtered case-insensitively; without `after`, the newest lines) and
 * `GET /console/api/logs/stream?after=&text=`, a live tail in NDJSON (`LogStreamFrame`): `open` with the
 * cursor it starts after, then `line`s as they are written, `missed` when lines were dropped from the ring
 * before the tail read them, a `heartbeat` every LOG_STREAM_HEARTBEAT_MS, and `end` when its console session
 * is no longer signed in (logout, expiry). It ends too when the client goes away. The page reads it with
 * `fetch()`, so the CSRF header is sent and nothing but the cursor and filter is in the URL.
 */
export function registerLogRoutes(context: ConsoleRouteContext, api: string): void {
  const { app, backend, sessions, sessionWithCsrf } = context;
  const heartbeatMs = context.logStreams?.heartbeatMs ?? LOG_STREAM_HEARTBEAT_MS;
  const maxOpen = context.logStreams?.maxOpen ?? LOG_STREAM_MAX_OPEN;
  let open = 0;

  /** The signed-in session, its caller, the ring (admin only: the backend throws 403) and the query. */
  const readRequest = async (c: Context) => {
    const session = await sessionWithCsrf(c);
    if ("status" in session) return session;
    const caller = session.caller;
    if (caller === undefined) return loginRefusal();
    const ring = backend.logs?.(caller);
    if (ring === undefined) return noLog();
    const query = readLogQuery(c);
    if ("status" in query) return query;
    return { session, caller, ring, query };
  };

  app.get(`${api}/logs`, async (c) => {
    const request = await readRequest(c);
    if ("status" in request) return refuse(c, request);
    const { ring, query } = request;
    return c.json(ring.page({ ...query, limit: LOG_PAGE_LINES }));
  });

  app.get(`${api}/logs/stream`, async (c) => {
    const request = await readRequest(c);
    if ("status" in request) return refuse(c, request);
    if (open >= maxOpen) {
      return refuse(c, {
        status: 429,
        code: "too_many_log_streams",
        message: `this gateway already serves ${maxOpen} live log tails: close a Logs page elsewhere and try again.`,
      });
    }
    open += 1;
    const body = tailStream({
      ...request,
      // The session is still live in the store (signed out or expired ends it), and its key still configured.
      stillSignedIn: async (session) =>
        session.keyId !== undefined &&
        backend.callerFor(session.keyId) !== undefined &&
        (await sessions.isSignedIn(session.id)),
      heartbeatMs,
      onClose: () => {
        open -= 1;
      },
    });
    return c.body(body, 200, { "Content-Type": NDJSON, "X-Accel-Buffering": "no" });
  });
}

/**
 * The live tail: reads the ring after the cursor as lines are written, as fast as the client takes them (at
 * most LOG_STREAM_QUEUED_CHUNKS queued), until the client goes away or the session is signed out.
 */
function tailStream(options: {
  session: ConsoleSession;
  ring: LogRingReader;
  query: { after?: number; text?: string };
  stillSignedIn(session: ConsoleSession): Promise<boolean>;
  heartbeatMs: number;
  onClose(): void;
}): ReadableStream<Uint8Array> {
  const { ring, query, session } = options;
  const encoder = new TextEncoder();
  const encode = (frames: LogStreamFrame[]) =>
    encoder.encode(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(""));
  // Starts after the newest line, or after `after` (a cursor past the newest line, from an earlier
  // process, is read as the newest).
  const newest = ring.page({ limit: 1 }).next;
  let cursor = Math.min(query.after ?? newest, newest);
  let closed = false;
  let scheduled = false;
  let again = false;
  let unfollow = () => {};
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;

  const stop = () => {
    if (closed) return;
    closed = true;
    unfollow();
    clearInterval(heartbeat);
    options.onClose();
  };
  /**
   * False (and the stream ended with its reason) once the session is no longer signed in, or when the store
   * cannot say (a fault ends the tail too: the page reopens it).
   */
  const signedIn = async (into: ReadableStreamDefaultController<Uint8Array>) => {
    const live = await options.stillSignedIn(session).catch(() => false);
    if (closed) return false;
    if (live) return true;
    into.enqueue(
      encode([{ type: "end", reason: "the console session ended (signed out or expired): sign in again." }]),
    );
    into.close();
    stop();
    return false;
  };
  const flush = async () => {
    if (closed || controller === undefined || !(await signedIn(controller))) return;
    while ((controller.desiredSize ?? 0) > 0) {
      const page = ring.page({
        after: cursor,
        limit: LOG_STREAM_BATCH_LINES,
        ...(query.text === undefined ? {} : { text: query.text }),
      });
      const frames: LogStreamFrame[] = [];
      if (page.missed > 0) frames.push({ type: "missed", count: page.missed });
      for (const line of page.lines) frames.push({ type: "line", ...line });
      cursor = page.next;
      if (frames.length > 0) controller.enqueue(encode(frames));
      if (!page.more) break;
    }
  };
  // Lines are read after the write that announced them returns: a follower never runs inside a log call.
  // One flush at a time (it asks the session store first); lines written meanwhile get one more.
  const schedule = () => {
    if (closed) return;
    if (scheduled) {
      again = true;
      return;
    }
    scheduled = true;
    setImmediate(() => {
      void flush().finally(() => {
        scheduled = false;
        if (again) {
          again = false;
          schedule();
        }
      });
    });
  };

  return new ReadableStream<Uint8Array>(
    {
      start(opened) {
        controller = opened;
        opened.enqueue(encode([{ type: "open", next: cursor }]));
        unfollow = ring.follow(schedule);
        heartbeat = setInterval(() => {
          if (closed) return;
          void signedIn(opened).then((live) => {
            if (live && !closed && (opened.desiredSize ?? 0) > 0)
              opened.enqueue(encode([{ type: "heartbeat", time: new Date().toISOString() }]));
          });
        }, options.heartbeatMs);
        heartbeat.unref();
      },
      // The client took a chunk: read on, in case it had fallen behind.
      pull: schedule,
      cancel: stop,
    },
    new CountQueuingStrategy({ highWaterMark: LOG_STREAM_QUEUED_CHUNKS }),
  );
}

/** The cursor (a whole number) and the filter of a logs request; a 400 for a cursor that is no number. */
function readLogQuery(c: Context): { after?: number; text?: string } | Refusal {
  const after = c.req.query("after");
  const text = c.req.query("text")?.slice(0, MAX_FILTER_CHARS);
  if (after !== undefined && after !== "" && !/^\d{1,15}$/u.test(after)) {
    return {
      status: 400,
      code: "invalid_request",
      message: "after must be the `next` cursor of an earlier answer (a whole number).",
    };
  }
  return {
    ...(after === undefined || after === "" ? {} : { after: Number(after) }),
    ...(text === undefined || text === "" ? {} : { text }),
  };
}

function noLog(): Refusal {
  return {
    status: 404,
    code: "not_found",
    message: "this gateway keeps no log lines for the console (it was started without a log ring).",
  };
}
