import type { Runner } from "../../runtime/runner/index.js";
import type { SessionStore, StorageStatus } from "../../runtime/sessions/index.js";
import type { ResponseStore, SessionRunQueue } from "../../runtime/state/index.js";
import type { HostedToolReporter, HostedToolsSetting } from "./hosted-tools.js";
import type { InternalErrorReporter } from "./internal-error.js";
import type { RunTracker } from "./run-tracker.js";

/** What the route handlers share: the runner, the store, and the gateway's run bookkeeping. */
export type GatewayContext = {
  runner: Runner;
  sessions: SessionStore;
  /** Runs of one session, one at a time (across the fleet when the state is shared). */
  queue: SessionRunQueue;
  tracker: RunTracker;
  /** Whether the state takes writes now (`/healthz`; cached briefly by the store), with the reason when not. */
  probeStorage: () => Promise<StorageStatus | undefined>;
  /** Stored responses: `previous_response_id` and `GET /v1/responses/:id`. */
  responses: ResponseStore;
  /** Logs the hosted tools requests declared, once per agent and type. */
  hostedToolReporter: HostedToolReporter;
  maxBodyBytes: number;
  /** `gateway.hostedTools`: hosted tools a client declares are left out and reported, or a 400. */
  hostedTools: HostedToolsSetting;
  /** Ids of the keys without `admin`, whose sessions live in their own namespace (`session-owner.ts`). */
  namespacedKeyIds: ReadonlySet<string>;
  /** Every line is one line: control characters are escaped (`escapeControlCharacters`). */
  log: (line: string) => void;
  /** Unexpected errors: logged once per cause, answered 500 (or 503 when out of descriptors). */
  reportInternal: InternalErrorReporter;
};
