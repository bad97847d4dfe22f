/**
 * One server-sent event the mock writes: an optional `event:` name and the `data:` text; `piece` marks a
 * frame that carries a piece of generated text or arguments (what a piece delay paces).
 */
export type StreamFrame = { event?: string; data: string; piece?: true };
