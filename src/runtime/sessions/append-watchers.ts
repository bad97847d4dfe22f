/** Who is told of a session's appends (`SessionStore.onAppended`). */
export type AppendListener = (agentId: string, sessionKey: string) => void;

/** The listeners of one store: `add` returns what removes the listener; `tell` calls each (a throw is ignored). */
export function createAppendWatchers(): {
  add(listener: AppendListener): () => void;
  tell(agentId: string, sessionKey: string): void;
} {
  const listeners = new Set<AppendListener>();
  return {
    add(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    tell(agentId, sessionKey) {
      for (const listener of [...listeners]) {
        try {
          listener(agentId, sessionKey);
        } catch {
          // A listener is told, never in the way: the append already happened.
        }
      }
    },
  };
}
