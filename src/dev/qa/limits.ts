/** How long a gateway child process may take to print its address. */
export const GATEWAY_START_TIMEOUT_MS = 20_000;
/** How long one lane's request may take. */
export const LANE_REQUEST_TIMEOUT_MS = 60_000;
/**
 * The streaming lanes' mock piece delay (ms before each streamed word or argument piece, see mock-openai's
 * `pieceDelayMs`): the answer's four words then span 120 ms, so its first delta reaches the client well
 * before the run ends even on a busy machine. The other lanes use an unpaced mock.
 */
export const QA_STREAM_PIECE_DELAY_MS = 40;
/** Fewest text deltas a streaming lane must receive ("several", not one whole text). */
export const MIN_STREAMED_TEXT_DELTAS = 2;
