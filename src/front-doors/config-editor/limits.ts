/** Names tried for a backup (`<file>.bak-<timestamp>`, then `-2`, `-3`, …) before giving up. */
export const MAX_BACKUP_ATTEMPTS = 100;
