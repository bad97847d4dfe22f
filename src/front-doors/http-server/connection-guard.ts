import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { ConnectionBudget } from "./descriptor-limit.js";
import { BUSY_RETRY_AFTER_SECONDS, CONNECTIONS_CHECK_INTERVAL_MS, PRESSURE_IDLE_MS } from "./limits.js";
import type { RepeatLimitedLog } from "./repeat-limited-log.js";

/** How often, under pressure, idle connections are looked for (four times per PRESSURE_IDLE_MS). */
const PRESSURE_SWEEP_MS = PRESSURE_IDLE_MS / 4;

type ConnectionState = {
  /** Requests of this connection whose response has not closed yet. */
  active: number;
  /** When the connection was accepted, or its last response closed. */
  idleSince: number;
  /** Accepted beyond the cap: its request (if any comes) is answered 503, then it is closed. */
  refused: boolean;
  /** Bytes the kernel took so far, at the last send check. */
  flushed: number;
  /** Since when queued bytes have not moved (undefined: nothing queued, or they moved). */
  stalledSince: number | undefined;
};

/** What the guard needs from its server. */
export type ConnectionGuardOptions = {
  budget: ConnectionBudget;
  /** A connection whose queued bytes have not moved for this long is destroyed. */
  sendTimeoutMs: number;
  /** The body of the 503 for a request on a connection beyond the cap, in the server's error shape. */
  renderBusy: (path: string) => unknown;
  /** Repeat-limited: the cap and the send timeout can be hit per connection. */
  log: RepeatLimitedLog;
  /** Names the server in log lines (`gateway`, `mcp serve`). */
  name: string;
};

/**
 * Bounds what clients can hold of one Node HTTP server, before any route or auth runs: at most
 * `budget.cap` connections are served; a new connection beyond evicts the longest-idle connection that has
 * no request in progress (idle for PRESSURE_IDLE_MS at least), or else is accepted only to be answered 503
 * with `Retry-After` and closed (up to `budget.refusalLimit`; beyond, the 503 is written at once and the
 * connection closed without reading it). From
 * `budget.pressure` connections on, connections without a request in progress are closed after
 * PRESSURE_IDLE_MS and responses close their connection. A connection whose queued response bytes have not
 * moved for `sendTimeoutMs` is destroyed.
 */
export class ConnectionGuard {
  readonly #options: ConnectionGuardOptions;
  readonly #connections = new Map<Socket, ConnectionState>();
  /** Connections beyond `budget.refusalLimit`: answered 503 as soon as accepted, then destroyed. */
  readonly #turnedAway = new WeakSet<Socket>();
  #refused = 0;
  #pressureSweep: NodeJS.Timeout | undefined;
  readonly #sendCheck: NodeJS.Timeout;

  constructor(options: ConnectionGuardOptions) {
    this.#options = options;
    this.#sendCheck = setInterval(() => this.#checkSends(), CONNECTIONS_CHECK_INTERVAL_MS);
    this.#sendCheck.unref();
  }

  /** Tracks `server`'s connections. */
  attach(server: Server): void {
    server.on("connection", (socket: Socket) => this.#admit(socket));
  }

  /** `listener` behind the guard: a request on a refused connection gets the 503, others are tracked. */
  wrap(
    listener: (request: IncomingMessage, response: ServerResponse) => unknown,
  ): (request: IncomingMessage, response: ServerResponse) => void {
    return (request, response) => {
      if (this.#turnedAway.has(request.socket)) {
        response.destroy();
        return;
      }
      const state = this.#connections.get(request.socket);
      if (state?.refused === true) {
        this.#answerBusy(request, response);
        return;
      }
      if (state !== undefined) {
        state.active += 1;
        response.once("close", () => {
          state.active -= 1;
          state.idleSince = Date.now();
        });
      }
      // Under pressure no connection is kept alive after its response: the slot goes back at once.
      if (this.#underPressure()) response.setHeader("Connection", "close");
      void listener(request, response);
    };
  }

  /** Stops the guard's timers. */
  close(): void {
    clearInterval(this.#sendCheck);
    this.#stopPressureSweep();
  }

  #admit(socket: Socket): void {
    const { budget, name } = this.#options;
    if (this.#connections.size >= budget.refusalLimit) {
      this.#turnAway(socket);
      return;
    }
    const now = Date.now();
    const state: ConnectionState = {
      active: 0,
      idleSince: now,
      refused: false,
      flushed: 0,
      stalledSince: undefined,
    };
    if (this.#connections.size >= budget.cap && !this.#evictIdle(now)) {
      state.refused = true;
      this.#refused += 1;
      this.#options.log(
        "connection-cap",
        `${name}: connection limit reached (${budget.cap} open): new connections are answered 503 with Retry-After`,
      );
    }
    this.#connections.set(socket, state);
    socket.once("close", () => {
      // An evicted connection was already taken out (and uncounted) when it was evicted.
      if (this.#connections.delete(socket) && state.refused) this.#refused -= 1;
    });
    if (this.#underPressure()) this.#startPressureSweep();
  }

  /** Closes the connection idle the longest (at least PRESSURE_IDLE_MS); false when there is none. */
  #evictIdle(now: number): boolean {
    let oldest: [Socket, ConnectionState] | undefined;
    for (const entry of this.#connections) {
      const [, state] = entry;
      if (state.active > 0 || now - state.idleSince < PRESSURE_IDLE_MS) continue;
      if (oldest === undefined || state.idleSince < oldest[1].idleSince) oldest = entry;
    }
    if (oldest === undefined) return false;
    this.#connections.delete(oldest[0]);
    if (oldest[1].refused) this.#refused -= 1;
    oldest[0].destroy();
    return true;
  }

  /**
   * Beyond every allowance: the 503 is written as soon as the connection is accepted (before its request is
   * read) and the descriptor is released once the bytes are handed to the kernel.
   */
  #turnAway(socket: Socket): void {
    this.#turnedAway.add(socket);
    const { budget, name } = this.#options;
    this.#options.log(
      "connection-turned-away",
      `${name}: ${budget.refusalLimit} connections are open (cap ${budget.cap}): more are answered 503 at once and closed`,
    );
    const body = JSON.stringify(this.#options.renderBusy("/"));
    const head =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\nRetry-After: ${BUSY_RETRY_AFTER_SECONDS}\r\nConnection: close\r\n\r\n`;
    socket.end(head + body, () => socket.destroy());
  }

  #answerBusy(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const body = JSON.stringify(this.#options.renderBusy(path));
    response.writeHead(503, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      "Retry-After": String(BUSY_RETRY_AFTER_SECONDS),
      Connection: "close",
    });
    response.end(body);
  }

  #underPressure(): boolean {
    return this.#connections.size >= this.#options.budget.pressure || this.#refused > 0;
  }

  #startPressureSweep(): void {
    if (this.#pressureSweep !== undefined) return;
    this.#pressureSweep = setInterval(() => this.#sweepIdle(), PRESSURE_SWEEP_MS);
    this.#pressureSweep.unref();
  }

  #stopPressureSweep(): void {
    clearInterval(this.#pressureSweep);
    this.#pressureSweep = undefined;
  }

  /** Under pressure: closes every connection without a request in progress for PRESSURE_IDLE_MS. */
  #sweepIdle(): void {
    if (!this.#underPressure()) {
      this.#stopPressureSweep();
      return;
    }
    const now = Date.now();
    for (const [socket, state] of this.#connections) {
      if (state.active === 0 && now - state.idleSince >= PRESSURE_IDLE_MS) socket.destroy();
    }
  }

  /** Destroys connections whose queued bytes have not moved for `sendTimeoutMs` (a client that stopped reading). */
  #checkSends(): void {
    const now = Date.now();
    for (const [socket, state] of this.#connections) {
      const queued = socket.writableLength;
      const flushed = socket.bytesWritten - queued;
      if (queued === 0 || flushed !== state.flushed) {
        state.flushed = flushed;
        state.stalledSince = undefined;
        continue;
      }
      state.stalledSince ??= now;
      if (now - state.stalledSince < this.#options.sendTimeoutMs) continue;
      socket.destroy();
      this.#options.log(
        "send-timeout",
        `${this.#options.name}: connection closed: the client read nothing of its response for ` +
          `${this.#options.sendTimeoutMs} ms (send timeout)`,
      );
    }
  }
}
