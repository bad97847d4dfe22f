import { MAX_REMEMBERED_RESPONSES, MAX_STORED_RESPONSE_BYTES } from "./limits.js";

/** Where a response was produced: the session its follow-ups continue. */
export type ResponseOrigin = { agentId: string; sessionKey: string };

type Remembered = { origin: ResponseOrigin; body?: string };

/**
 * Remembers which agent and session produced each response id, so `previous_response_id` continues that
 * session, and the response body itself for `GET /v1/responses/:id`. In memory and bounded: past `capacity`
 * ids the oldest is forgotten (then 404), and past `maxBodyBytes` of bodies the oldest bodies are dropped
 * while their ids still continue sessions.
 */
export class ResponseRegistry {
  readonly #remembered = new Map<string, Remembered>();
  readonly #capacity: number;
  readonly #maxBodyBytes: number;
  /** Bodies held, oldest first, with their sizes. */
  readonly #bodies = new Map<string, number>();
  #bodyBytes = 0;

  constructor(capacity = MAX_REMEMBERED_RESPONSES, maxBodyBytes = MAX_STORED_RESPONSE_BYTES) {
    this.#capacity = Math.max(1, capacity);
    this.#maxBodyBytes = Math.max(0, maxBodyBytes);
  }

  /** Records the origin of `responseId` (and its body, when given), forgetting the oldest when full. */
  remember(responseId: string, origin: ResponseOrigin, body?: unknown): void {
    this.#forget(responseId);
    const remembered: Remembered = { origin };
    if (body !== undefined) {
      const text = JSON.stringify(body);
      const bytes = Buffer.byteLength(text, "utf8");
      if (bytes <= this.#maxBodyBytes) {
        remembered.body = text;
        this.#bodies.set(responseId, bytes);
        this.#bodyBytes += bytes;
      }
    }
    this.#remembered.set(responseId, remembered);
    while (this.#remembered.size > this.#capacity) {
      const oldest = this.#remembered.keys().next();
      if (oldest.done === true) break;
      this.#forget(oldest.value);
    }
    while (this.#bodyBytes > this.#maxBodyBytes) {
      const oldest = this.#bodies.keys().next();
      if (oldest.done === true) break;
      this.#dropBody(oldest.value);
    }
  }

  /** The origin of `responseId`, or undefined when unknown or forgotten. */
  lookup(responseId: string): ResponseOrigin | undefined {
    return this.#remembered.get(responseId)?.origin;
  }

  /** A fresh copy of the stored body of `responseId`, or undefined when none is kept. */
  stored(responseId: string): unknown {
    const body = this.#remembered.get(responseId)?.body;
    return body === undefined ? undefined : JSON.parse(body);
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#remembered.size;
  }

  #forget(responseId: string): void {
    this.#dropBody(responseId);
    this.#remembered.delete(responseId);
  }

  #dropBody(responseId: string): void {
    const bytes = this.#bodies.get(responseId);
    if (bytes === undefined) return;
    this.#bodies.delete(responseId);
    this.#bodyBytes -= bytes;
    const remembered = this.#remembered.get(responseId);
    if (remembered) delete remembered.body;
  }
}
