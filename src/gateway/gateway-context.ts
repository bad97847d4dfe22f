import type { Context } from "hono";
import type { Runner } from "../runner/index.js";
import type { SessionStore } from "../sessions/index.js";
import type { ResponseRegistry } from "./response-registry.js";
import type { RunTracker } from "./run-tracker.js";
import type { SessionQueue } from "./session-queue.js";

/** What the route handlers share: the runner, the store, and the gateway's run bookkeeping. */
export type GatewayContext = {
  runner: Runner;
  sessions: SessionStore;
  queue: SessionQueue;
  tracker: RunTracker;
  responses: ResponseRegistry;
  maxBodyBytes: number;
  /** Whether the request carries the gateway's credentials (always, without a token): see request-authorised.ts. */
  authorised: (c: Context) => boolean;
  log: (line: string) => void;
};
