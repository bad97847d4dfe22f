/** How long a call waits for an operator decision before it is denied: 60 s. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 60_000;

/** Longest wait a broker accepts (the largest delay Node's timers honour, about 24.8 days). */
export const MAX_APPROVAL_TIMEOUT_MS = 2_147_483_647;

/** Most requests waiting at once; past this, new ones are denied at once instead of piling up. */
export const MAX_PENDING_APPROVALS = 1_000;

/** Longest operator note kept with a decision; longer notes are cut. */
export const MAX_APPROVAL_NOTE_CHARS = 1_000;

/** Longest bad option value quoted back in an error message. */
export const SHOWN_VALUE_CHARS = 40;
