import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { ToolsiftError } from "../../shared/errors/index.js";

/** The message of every call refused or cancelled because the schedule (the run's catalog) was closed. */
export const CATALOG_UNAVAILABLE_MESSAGE = "Tool Search catalog is unavailable for this run.";

/** `parallel` calls overlap; a `sequential` call runs alone. */
export type ScheduleMode = "parallel" | "sequential";

/** What a running task gets from the schedule. */
export interface ScheduleSlot {
  /** True when the call waited in the queue before it was admitted. */
  readonly waited: boolean;
  /** Keeps the slot taken until `work` settles, even after the task itself has settled. */
  hold(work: Promise<unknown>): void;
}

/** How one call is scheduled. */
export interface ScheduleOptions {
  readonly mode: ScheduleMode;
  /** Names the call in error messages (the tool id). */
  readonly label: string;
  /** Aborting it removes a queued call without running it (rejects CANCELLED); a running task is not touched. */
  readonly signal?: AbortSignal;
  /** Called when a call that had to wait is admitted; if it throws, the call is rejected with that error unrun. */
  readonly onAdmitAfterWait?: () => void;
}

/** One schedule for one run catalog, shared by every surface that calls its tools. */
export interface ToolScheduler {
  /** Runs `task` when admitted (first come, first served) and settles with it. */
  run<T>(task: (slot: ScheduleSlot) => Promise<T>, options: ScheduleOptions): Promise<T>;
  /** Rejects every queued call and every later `run` with CATALOG_CLOSED; running tasks finish. */
  close(): void;
  readonly closed: boolean;
  /** Tasks holding a slot now. */
  readonly running: number;
  /** Calls waiting for admission. */
  readonly queued: number;
}

interface ActiveSlot {
  readonly scheduler: object;
  released: boolean;
}

interface QueuedCall {
  readonly options: ScheduleOptions;
  readonly start: (record: ActiveSlot, slot: ScheduleSlot) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  waited: boolean;
  onAbort?: () => void;
}

/** The slots held by the calls the current async context runs inside (for nested-call detection). */
const activeSlots = new AsyncLocalStorage<readonly ActiveSlot[]>();
/**
 * Slots held right now, by every schedule of the process. An enabled AsyncLocalStorage turns on promise
 * hooks for every promise of the process (a few percent of the gateway's CPU per run), so `activeSlots` is
 * enabled by the first call that enters a slot and disabled again when no call holds one: a nested call can
 * only happen while its outer call holds a slot, and every promise made inside that call is made while
 * the storage is enabled, so it still carries the outer call's slots.
 */
let heldSlots = 0;

function releaseHeldSlot(): void {
  heldSlots -= 1;
  if (heldSlots === 0) activeSlots.disable();
}

const noop = () => {};

function deadlockError(label: string): ToolsiftError {
  return new ToolsiftError(
    "SCHEDULE_DEADLOCK",
    `Tool "${label}" was called from inside a running tool call and would wait on its own schedule (a sequential call is running or queued); it failed at once instead of deadlocking. Call it after the current tool call has finished.`,
  );
}

function cancelledError(label: string): ToolsiftError {
  return new ToolsiftError("CANCELLED", `Tool "${label}" was cancelled before it started.`);
}

/**
 * A first-come-first-served schedule. Invariants: calls start while the head of the queue is parallel
 * and no sequential call runs, or the head is sequential and nothing runs; a sequential call waits for
 * every earlier call and blocks every later one until its task and every held promise settled; a slot is
 * never released early (not on abort, not on close). A call made from inside a running call of the same
 * schedule (found through AsyncLocalStorage) that cannot start at once fails with SCHEDULE_DEADLOCK.
 */
export function createToolScheduler(): ToolScheduler {
  const identity = {};
  const queue: QueuedCall[] = [];
  let running = 0;
  let exclusive = false;
  let closed = false;

  const canStart = (mode: ScheduleMode) => (mode === "sequential" ? running === 0 : !exclusive);

  const detach = (call: QueuedCall) => {
    if (call.onAbort) call.options.signal?.removeEventListener("abort", call.onAbort);
  };

  const startCall = (call: QueuedCall) => {
    detach(call);
    if (call.waited && call.options.onAdmitAfterWait) {
      try {
        call.options.onAdmitAfterWait();
      } catch (error) {
        call.reject(error);
        return;
      }
    }
    const sequential = call.options.mode === "sequential";
    running += 1;
    if (sequential) exclusive = true;
    const record: ActiveSlot = { scheduler: identity, released: false };
    heldSlots += 1;
    const held: Promise<unknown>[] = [];
    const slot: ScheduleSlot = {
      waited: call.waited,
      hold: (work) => {
        held.push(Promise.resolve(work).then(noop, noop));
      },
    };
    let task: Promise<unknown>;
    try {
      task = Promise.resolve(call.start(record, slot));
    } catch (error) {
      task = Promise.reject(error);
    }
    task.then(call.resolve, call.reject);
    void task
      .then(noop, noop)
      .then(() => Promise.all(held))
      .then(() => {
        record.released = true;
        releaseHeldSlot();
        running -= 1;
        if (sequential) exclusive = false;
        pump();
      });
  };

  const pump = () => {
    while (queue.length > 0 && canStart(queue[0]!.options.mode)) startCall(queue.shift()!);
  };

  return {
    run<T>(task: (slot: ScheduleSlot) => Promise<T>, options: ScheduleOptions): Promise<T> {
      if (closed) return Promise.reject(new ToolsiftError("CATALOG_CLOSED", CATALOG_UNAVAILABLE_MESSAGE));
      if (options.signal?.aborted) return Promise.reject(cancelledError(options.label));
      const startNow = queue.length === 0 && canStart(options.mode);
      const nested = (activeSlots.getStore() ?? []).some((s) => s.scheduler === identity && !s.released);
      if (nested && !startNow) return Promise.reject(deadlockError(options.label));
      const enter = (record: ActiveSlot, slot: ScheduleSlot) =>
        activeSlots.run([...(activeSlots.getStore() ?? []), record], () => task(slot));
      // A call that starts now starts in this very context; only a queued one must carry it along.
      const start = startNow ? enter : AsyncResource.bind(enter);
      return new Promise<T>((resolve, reject) => {
        const call: QueuedCall = {
          options,
          start,
          resolve: resolve as (value: unknown) => void,
          reject,
          waited: !startNow,
        };
        if (startNow) {
          startCall(call);
          return;
        }
        if (options.signal) {
          call.onAbort = () => {
            const index = queue.indexOf(call);
            if (index < 0) return;
            queue.splice(index, 1);
            detach(call);
            reject(cancelledError(options.label));
            pump();
          };
          options.signal.addEventListener("abort", call.onAbort, { once: true });
        }
        queue.push(call);
      });
    },
    close() {
      closed = true;
      for (const call of queue.splice(0)) {
        detach(call);
        call.reject(new ToolsiftError("CATALOG_CLOSED", CATALOG_UNAVAILABLE_MESSAGE));
      }
    },
    get closed() {
      return closed;
    },
    get running() {
      return running;
    },
    get queued() {
      return queue.length;
    },
  };
}
