/** Characters a POSIX shell reads as themselves: a path made only of these needs no quotes. */
const SHELL_SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/u;

/**
 * ` --config <file>` as a person would type it again (single-quoted when the shell would otherwise split or
 * expand it), for the fix hints of a command that was given `--config`; empty when `file` is undefined, so a
 * hint for the default file stays short.
 */
export function configOptionText(file: string | undefined): string {
  if (file === undefined) return "";
  const quoted = SHELL_SAFE.test(file) ? file : `'${file.replaceAll("'", `'\\''`)}'`;
  return ` --config ${quoted}`;
}
