/** One server-sent event the mock writes: an optional `event:` name and the `data:` text. */
export type StreamFrame = { event?: string; data: string };
