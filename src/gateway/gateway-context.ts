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
  /** Ids of the keys without `admin`, whose sessions live in their own namespace (`session-owner.ts`). */
  namespacedKeyIds: ReadonlySet<string>;
  log: (line: string) => void;
};
