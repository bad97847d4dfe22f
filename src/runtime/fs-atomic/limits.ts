/** Permission bits of a new file when the caller names none, before the umask (as `fs.writeFile`). */
export const DEFAULT_NEW_FILE_MODE = 0o666;
/** Code points of the target's name kept in the temp file's name, so that the temp name stays under NAME_MAX. */
export const MAX_TEMP_NAME_STEM_CHARS = 32;
/** Random bytes in the temp file's name (hex-encoded). */
export const TEMP_NAME_RANDOM_BYTES = 6;
