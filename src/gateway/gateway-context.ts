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
  /** `gateway.hostedTools`: hosted tools a Responses client declares are left out and reported, or a 400. */
  hostedTools: "omit" | "reject";
  /** `<agentId>\u0000<type>` of the hosted tool types already logged as left out (one line each, ever). */
  reportedHostedTools: Set<string>;
  log: (line: string) => void;
};
