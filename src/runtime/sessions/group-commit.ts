/** Batched writes per key (one session log file each): what queues while a write runs goes out as one. */
export interface GroupCommit {
  /**
   * Queues `line` for `key`; resolves once a write that includes it has completed, rejects if that write
   * failed. With `sync`, that write is also flushed to the disk (a batch is synced when any line asks).
   */
  add(key: string, line: string, sync?: boolean): Promise<void>;
  /** Settles once everything queued for `key` so far has been written or has failed; never rejects. */
  idle(key: string): Promise<void>;
}

type Pending = { line: string; sync: boolean; resolve: () => void; reject: (error: unknown) => void };
type Queue = { pending: Pending[]; drained: Promise<void> };

/**
 * Group commit over `write(key, text)`: the first line for an idle key is written once the current turn of
 * the event loop is done (`setImmediate`), together with any line added for that key meanwhile; lines
 * added while a write is in progress wait and are then written together, in the order they were added, by
 * one `write` call (so one flush covers them all). Every `add` settles with the write that carried its line.
 * Writes for one key never overlap; different keys are independent.
 */
export function createGroupCommit(
  write: (key: string, text: string, sync: boolean) => Promise<void>,
): GroupCommit {
  const queues = new Map<string, Queue>();

  const drain = async (key: string, queue: Queue): Promise<void> => {
    while (queue.pending.length > 0) {
      const batch = queue.pending.splice(0);
      try {
        await write(
          key,
          batch.map((pending) => pending.line).join(""),
          batch.some((pending) => pending.sync),
        );
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    queues.delete(key);
  };

  return {
    add(key, line, sync = false) {
      return new Promise<void>((resolve, reject) => {
        const queued = queues.get(key);
        if (queued) {
          queued.pending.push({ line, sync, resolve, reject });
          return;
        }
        const queue: Queue = { pending: [{ line, sync, resolve, reject }], drained: Promise.resolve() };
        queues.set(key, queue);
        // Written once this turn of the event loop is done, so what a run logs between two waits (a model
        // request, its answer and the results of the calls it asked for; the last answer and the summary)
        // goes out as one write. A microtask would split those at every await of the run.
        queue.drained = new Promise<void>((resolve) => setImmediate(resolve)).then(() => drain(key, queue));
      });
    },
    idle(key) {
      return queues.get(key)?.drained ?? Promise.resolve();
    },
  };
}
