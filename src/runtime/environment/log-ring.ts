/** Lines a LogRing keeps at most; past it the oldest are dropped. */
export const DEFAULT_LOG_RING_LINES = 2000;

/** Bytes (UTF-8) of line text a LogRing keeps at most; past it the oldest lines are dropped. */
export const DEFAULT_LOG_RING_BYTES = 1024 * 1024;

/** Longest line a LogRing keeps, in characters: a longer one is cut (after redaction), ending with `CUT_MARKER`. */
export const MAX_LOG_RING_LINE_CHARS = 16 * 1024;

const CUT_MARKER = " … (cut)";

/** How bad a line is, when its text says so (a request's status, `warning:`, `error`, `failed`). */
export type LogLevel = "error" | "warn" | "info";

/** One kept line: its sequence number (1, 2, … in write order), when it was written, and its text as written. */
export type LogLine = { seq: number; time: string; level?: LogLevel; text: string };

/** Which lines a page holds. */
export type LogPageQuery = {
  /** Lines with a larger sequence number, oldest first. Unset: the newest `limit` matching lines. */
  after?: number;
  /** Case-insensitive text every line must contain. Unset or empty: every line. */
  text?: string;
  /** Most lines in the page. */
  limit: number;
};

/** A page of lines and where the next one starts. */
export type LogPage = {
  lines: LogLine[];
  /** The cursor of the next page (`after`): the last line this page looked at, matching or not. */
  next: number;
  /** True when lines after `next` were not looked at (the page was full). */
  more: boolean;
  /** Lines after the asked cursor that were dropped from the ring before they could be read. */
  missed: number;
};

/** What readers of a LogRing may do: read pages and be told when lines are written. */
export interface LogRingReader {
  page(query: LogPageQuery): LogPage;
  /** Calls `listener` after each line is written (it must not log); returns what stops it. */
  follow(listener: () => void): () => void;
}

/** Options of a LogRing; each bound has its default. */
export type LogRingOptions = {
  /** Default DEFAULT_LOG_RING_LINES. */
  maxLines?: number;
  /** Default DEFAULT_LOG_RING_BYTES. */
  maxBytes?: number;
  /** The clock stamping each line (tests). Default `Date.now`. */
  now?: () => number;
};

/**
 * The recent lines of one process's log, in memory, bounded by count and bytes (oldest dropped first), for the
 * console's Logs page. Lines are kept exactly as written to it (the gateway writes them already redacted and
 * with their control characters escaped), only cut past MAX_LOG_RING_LINE_CHARS.
 */
export class LogRing implements LogRingReader {
  readonly #lines: Array<LogLine & { bytes: number }> = [];
  readonly #listeners = new Set<() => void>();
  readonly #maxLines: number;
  readonly #maxBytes: number;
  readonly #now: () => number;
  #bytes = 0;
  #lastSeq = 0;

  constructor(options: LogRingOptions = {}) {
    this.#maxLines = options.maxLines ?? DEFAULT_LOG_RING_LINES;
    this.#maxBytes = options.maxBytes ?? DEFAULT_LOG_RING_BYTES;
    this.#now = options.now ?? Date.now;
  }

  /** Keeps `text` as the newest line, drops the oldest past the bounds, and tells the followers. */
  append(text: string): void {
    const kept =
      text.length <= MAX_LOG_RING_LINE_CHARS
        ? text
        : text.slice(0, MAX_LOG_RING_LINE_CHARS - CUT_MARKER.length) + CUT_MARKER;
    this.#lastSeq += 1;
    const level = levelOf(kept);
    const line = {
      seq: this.#lastSeq,
      time: new Date(this.#now()).toISOString(),
      ...(level === undefined ? {} : { level }),
      text: kept,
      bytes: Buffer.byteLength(kept, "utf8"),
    };
    this.#lines.push(line);
    this.#bytes += line.bytes;
    while (this.#lines.length > this.#maxLines || (this.#bytes > this.#maxBytes && this.#lines.length > 1)) {
      const dropped = this.#lines.shift();
      if (dropped !== undefined) this.#bytes -= dropped.bytes;
    }
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A follower's failure is its own; the log goes on.
      }
    }
  }

  page(query: LogPageQuery): LogPage {
    const needle = query.text === undefined || query.text === "" ? undefined : query.text.toLowerCase();
    const matches = (line: LogLine) => needle === undefined || line.text.toLowerCase().includes(needle);
    const limit = Math.max(1, query.limit);
    if (query.after === undefined) {
      const lines: LogLine[] = [];
      for (let index = this.#lines.length - 1; index >= 0 && lines.length < limit; index -= 1) {
        const line = this.#lines[index];
        if (line !== undefined && matches(line)) lines.push(shown(line));
      }
      return { lines: lines.reverse(), next: this.#lastSeq, more: false, missed: 0 };
    }
    const after = Math.min(Math.max(0, Math.floor(query.after)), this.#lastSeq);
    const oldest = this.#lines[0]?.seq ?? this.#lastSeq + 1;
    const missed = Math.max(0, oldest - after - 1);
    const lines: LogLine[] = [];
    let next = after;
    for (let index = Math.max(0, after - oldest + 1); index < this.#lines.length; index += 1) {
      if (lines.length >= limit) return { lines, next, more: true, missed };
      const line = this.#lines[index];
      if (line === undefined) break;
      next = line.seq;
      if (matches(line)) lines.push(shown(line));
    }
    return { lines, next, more: false, missed };
  }

  follow(listener: () => void): () => void {
    const own = () => listener();
    this.#listeners.add(own);
    return () => {
      this.#listeners.delete(own);
    };
  }

  /** Lines and bytes held now. */
  size(): { lines: number; bytes: number } {
    return { lines: this.#lines.length, bytes: this.#bytes };
  }
}

function shown(line: LogLine & { bytes: number }): LogLine {
  const { bytes: _bytes, ...rest } = line;
  return rest;
}

/** A request line as the gateway writes it: `GET /path 404 3ms` (the path decoded: it may hold spaces). */
const REQUEST_LINE = /^[A-Z]+ \/.* ([1-5])\d\d \d+ms$/u;

/** The level a line's own words give it; undefined when they say nothing. */
function levelOf(text: string): LogLevel | undefined {
  const status = REQUEST_LINE.exec(text)?.[1];
  if (status !== undefined) return status === "5" ? "error" : status === "4" ? "warn" : "info";
  if (/^(warning|refused)\b|\bwarn(ing)?:/iu.test(text)) return "warn";
  if (/\berror\b|\bfailed\b/iu.test(text)) return "error";
  return undefined;
}
