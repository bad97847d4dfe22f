/** Default most bytes `read` returns from one call (1 MiB). */
export const DEFAULT_MAX_READ_BYTES = 1024 * 1024;
/** Default most bytes `write` (and the result of `edit`) may put in a file (1 MiB). */
export const DEFAULT_MAX_WRITE_BYTES = 1024 * 1024;
/** Default and ceiling of one `exec` call's run time (30 s). */
export const DEFAULT_EXEC_TIMEOUT_MS = 30_000;
/** Default most bytes of combined stdout and stderr `exec` keeps (64 KiB). */
export const DEFAULT_MAX_EXEC_OUTPUT_BYTES = 64 * 1024;

/** Longest path a tool accepts, in characters (PATH_MAX on Linux). */
export const MAX_PATH_CHARS = 4096;
/** Longest single path component, in UTF-8 bytes (NAME_MAX). */
export const MAX_PATH_COMPONENT_BYTES = 255;
/** Longest piece of a path quoted back in a message. */
export const MAX_SHOWN_PATH_CHARS = 200;
