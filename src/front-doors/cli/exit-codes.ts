/** Exit codes of the CLI. */

/** Exit code of a successful command (zero results included). */
export const EXIT_SUCCESS = 0;

/** Exit code of a failed command: unreadable or invalid input, a failing operation. */
export const EXIT_FAILURE = 1;

/** Exit code of a usage error: unknown option, missing or malformed argument. */
export const EXIT_USAGE = 2;
