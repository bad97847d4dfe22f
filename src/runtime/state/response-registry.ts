import { LRUCache } from "lru-cache";
import { MAX_REMEMBERED_RESPONSES, MAX_STORED_RESPONSE_BYTES } from "./limits.js";
import type { ResponseOrigin, ResponseStore } from "./types.js";

/**
 * Remembers which agent and session produced each response id, so `previous_response_id` continues that
 * session, and the response body itself for `GET /v1/responses/:id`. In memory and bounded: past `capacity`
 * ids the oldest is forgotten (then 404), and past `maxBodyBytes` of bodies the oldest bodies are dropped
 * while their ids still continue sessions. Reads use `peek`, so the order stays the order of remembering.
 */
export class ResponseRegistry {
  readonly #origins: LRUCache<string, ResponseOrigin>;
  /** The JSON text of the bodies held, sized in UTF-8 bytes. */
  readonly #bodies: LRUCache<string, string>;
  readonly #maxBodyBytes: number;

  constructor(capacity = MAX_REMEMBERED_RESPONSES, maxBodyBytes = MAX_STORED_RESPONSE_BYTES) {
    this.#maxBodyBytes = Math.max(0, maxBodyBytes);
    this.#bodies = new LRUCache<string, string>({
      maxSize: Math.max(1, this.#maxBodyBytes),
      sizeCalculation: (text) => Math.max(1, Buffer.byteLength(text, "utf8")),
    });
    this.#origins = new LRUCache<string, ResponseOrigin>({
      max: Math.max(1, capacity),
      // A forgotten id takes its body with it.
      dispose: (_origin, responseId) => this.#bodies.delete(responseId),
    });
  }

  /** Records the origin of `responseId` (and its body, when given), forgetting the oldest when full. */
  remember(responseId: string, origin: ResponseOrigin, body?: unknown): void {
    this.#origins.delete(responseId);
    if (body !== undefined) {
      const text = JSON.stringify(body);
      if (Buffer.byteLength(text, "utf8") <= this.#maxBodyBytes) this.#bodies.set(responseId, text);
    }
    this.#origins.set(responseId, origin);
  }

  /** The origin of `responseId`, or undefined when unknown or forgotten. */
  lookup(responseId: string): ResponseOrigin | undefined {
    return this.#origins.peek(responseId);
  }

  /** A fresh copy of the stored body of `responseId`, or undefined when none is kept. */
  stored(responseId: string): unknown {
    const body = this.#bodies.peek(responseId);
    return body === undefined ? undefined : JSON.parse(body);
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#origins.size;
  }
}

/** The in-memory ResponseStore of one process (the embedded default): a ResponseRegistry behind promises. */
export function createMemoryResponseStore(registry = new ResponseRegistry()): ResponseStore {
  return {
    remember: async (responseId, origin, body) => registry.remember(responseId, origin, body),
    lookup: async (responseId) => registry.lookup(responseId),
    stored: async (responseId) => registry.stored(responseId),
  };
}
