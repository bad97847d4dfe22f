import type { Hono } from "hono";
import type { ApprovalBroker } from "../approvals/index.js";
import type { Runner } from "../runner/index.js";
import type { SessionStore } from "../sessions/index.js";

/** Options of `createGateway`. */
export type GatewayOptions = {
  runner: Runner;
  sessions: SessionStore;
  /** Largest request body in bytes; bigger ones get 413. Default 1 MiB (`DEFAULT_MAX_BODY_BYTES`). */
  maxBodyBytes?: number;
  /**
   * When set, every route but `/healthz` requires `Authorization: Bearer <authToken>` (401 otherwise).
   * Default: none (open; `startGateway` then refuses non-loopback hosts).
   */
  authToken?: string;
  /** Serves `GET /v1/approvals` and `POST /v1/approvals/:id` from this broker. Default: no approval routes. */
  approvals?: ApprovalBroker;
  /** Receives one line per request (method, path, status, ms) and the detail of internal errors. Default: stderr. */
  log?: (line: string) => void;
};

/** A listening gateway server. */
export type GatewayListener = {
  /** Base URL, e.g. `http://127.0.0.1:18789` (the real port when 0 was asked for). */
  url: string;
  port: number;
  /** Stops listening and resolves once every connection closed (lingering ones are cut after a grace). */
  close(): Promise<void>;
};

/** Live counts of the gateway's runs. */
export type GatewayStats = { running: number; queued: number; draining: boolean };

/** The gateway: a Hono app plus its lifecycle. */
export type Gateway = {
  /** The HTTP app (usable in-process with `app.request()`, or served by `listen`). */
  app: Hono;
  /** Serves the app on `host:port` (port 0 picks a free port). */
  listen(options: { port: number; host: string }): Promise<GatewayListener>;
  /** Stops accepting runs (503) and waits for in-flight runs at most `timeoutMs`, then aborts them. */
  drain(timeoutMs: number): Promise<void>;
  /** Runs executing and waiting behind their session, and whether the gateway is draining. */
  stats(): GatewayStats;
};
