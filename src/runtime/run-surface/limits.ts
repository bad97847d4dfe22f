/** Most characters of one tool output kept in the session log (the model gets the whole output). */
export const MAX_LOGGED_OUTPUT_CHARS = 20_000;
/** Most characters of a target call's result kept as display-only activity. */
export const MAX_ACTIVITY_RESULT_CHARS = 4_000;
