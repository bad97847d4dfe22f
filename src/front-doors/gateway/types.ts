import type { Hono } from "hono";
import type { ApprovalBroker } from "../../runtime/approvals/index.js";
import type { LogRingReader } from "../../runtime/environment/index.js";
import type { AuthKey } from "../../runtime/http-guard/index.js";
import type { Runner } from "../../runtime/runner/index.js";
import type { SessionStore } from "../../runtime/sessions/index.js";
import type { StateStore } from "../../runtime/state/index.js";
import type { ServerLimits } from "../http-server/index.js";
import type { GatewayDiagnostics } from "./console-health.js";

/** Options of `createGateway`. */
export type GatewayOptions = {
  runner: Runner;
  sessions: SessionStore;
  /**
   * Where stored responses live, how runs of one session are ordered, and what `/healthz` asks about
   * storage (the environment's StateStore), and where console sessions live. Default: this process's memory,
   * and the session store's probe.
   */
  state?: Pick<StateStore, "responses" | "createRunQueue" | "probe"> &
    Partial<Pick<StateStore, "consoleSessions">>;
  /** Largest request body in bytes; bigger ones get 413. Default 1 MiB (`DEFAULT_MAX_BODY_BYTES`). */
  maxBodyBytes?: number;
  /**
   * Hosted tool types a Responses client declares that toolsift cannot run (`gateway.hostedTools`): `"omit"`
   * leaves them out of the model's request and reports them, `"reject"` answers 400. Default `"omit"`.
   */
  hostedTools?: "omit" | "reject";
  /**
   * The legacy single token, the admin key `admin`: with it (or `authKeys`), every route but `/healthz`
   * requires `Authorization: Bearer <token>` of a key (401 otherwise). Default: none.
   */
  authToken?: string;
  /**
   * Client keys with scopes (`gateway.auth.keys`): each route needs a scope, and a key sees only its own
   * sessions, stored responses and approvals (admin keys see all). With neither keys nor token every caller is
   * trusted with every scope, and `startGateway` refuses non-loopback hosts. Default: none.
   */
  authKeys?: readonly AuthKey[];
  /**
   * Origins (`scheme://host[:port]`) whose web pages may call the gateway; they get CORS headers and
   * preflights. A request with any other `Origin` is 403. Default: none (`gateway.cors.allowOrigins`).
   */
  allowOrigins?: readonly string[];
  /** More `Host` names the gateway answers to, any port (DNS rebinding guard). Default: none (`gateway.allowedHosts`). */
  allowedHosts?: readonly string[];
  /**
   * Reverse proxies (IP addresses, CIDR ranges) whose `X-Forwarded-For` names the client
   * (`gateway.trustedProxies`, `src/runtime/http-guard/client-address.ts`): the console's login and page-open
   * limits count that address. A bad entry throws CONFIG_INVALID. Default: none (the TCP peer is the client).
   */
  trustedProxies?: readonly string[];
  /**
   * The address the gateway is bound to, for the `Host` check (loopback binds answer to `localhost`,
   * `127.0.0.1`, `[::1]`). Default: the host given to `listen`, and 127.0.0.1 before it listens.
   */
  bindHost?: string;
  /**
   * Serves the operator console at `/console` (`gateway.console`): sessions, run timelines and approvals in a
   * browser, with the same keys and scopes as the API. Default true.
   */
  console?: boolean;
  /**
   * The recent lines of this process's log as written (already redacted), which the console's Logs page
   * shows to an admin; whoever owns the log feeds it (`toolsift gateway` writes every line into one). Default:
   * none (the Logs page says no lines are kept).
   */
  logRing?: LogRingReader;
  /**
   * The config the gateway started from and its MCP servers, for the console's Health page (the doctor's
   * checks, each server's status). Default: none (the page shows what `/healthz` shows).
   */
  diagnostics?: GatewayDiagnostics;
  /** Serves `GET /v1/approvals` and `POST /v1/approvals/:id` from this broker. Default: no approval routes. */
  approvals?: ApprovalBroker;
  /**
   * Most runs waiting behind a session's running run; one more is refused with 429 and `Retry-After`.
   * Default 8 (`DEFAULT_MAX_QUEUED_PER_SESSION`).
   */
  maxQueuedPerSession?: number;
  /** Bounds on what HTTP clients can hold open (timeouts, connections); see `ServerLimits` (`src/front-doors/http-server`). */
  serverLimits?: ServerLimits;
  /** Receives one line per request (method, path, status, ms) and the detail of internal errors. Default: stderr. */
  log?: (line: string) => void;
};

/** What one HTTP client can hold of the gateway (the shared hardened server's limits). */
export type { ServerLimits };

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
