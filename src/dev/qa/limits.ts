/** How long a gateway child process may take to print its address. */
export const GATEWAY_START_TIMEOUT_MS = 20_000;
/** How long one lane's request may take. */
export const LANE_REQUEST_TIMEOUT_MS = 60_000;
