/** Widest value `config get` and `config set` write on one line; wider objects and arrays get a line per entry. */
export const MAX_INLINE_VALUE_WIDTH = 100;
/** Mode of a config file `config set` creates: owner only, since it may hold keys. */
export const NEW_CONFIG_FILE_MODE = 0o600;
/** Mode of a config directory `config set` creates. */
export const NEW_CONFIG_DIR_MODE = 0o700;
/** Text a missing or blank config file is edited from. */
export const EMPTY_CONFIG_TEXT = "{}\n";
/** Names tried for a backup (`<file>.bak-<timestamp>`, then `-2`, `-3`, …) before giving up. */
export const MAX_BACKUP_ATTEMPTS = 100;
