import { MAX_REMEMBERED_RESPONSES } from "./limits.js";

/** Where a response was produced: the session its follow-ups continue. */
export type ResponseOrigin = { agentId: string; sessionKey: string };

/**
 * Remembers which agent and session produced each response id, so `previous_response_id` continues that
 * session. In memory and bounded: past `capacity` entries the oldest id is forgotten (then 404).
 */
export class ResponseRegistry {
  readonly #origins = new Map<string, ResponseOrigin>();
  readonly #capacity: number;

  constructor(capacity = MAX_REMEMBERED_RESPONSES) {
    this.#capacity = Math.max(1, capacity);
  }

  /** Records the origin of `responseId`, forgetting the oldest id when full. */
  remember(responseId: string, origin: ResponseOrigin): void {
    this.#origins.set(responseId, origin);
    while (this.#origins.size > this.#capacity) {
      const oldest = this.#origins.keys().next();
      if (oldest.done === true) break;
      this.#origins.delete(oldest.value);
    }
  }

  /** The origin of `responseId`, or undefined when unknown or forgotten. */
  lookup(responseId: string): ResponseOrigin | undefined {
    return this.#origins.get(responseId);
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#origins.size;
  }
}
