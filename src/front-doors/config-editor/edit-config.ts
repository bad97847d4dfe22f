import { mkdir, open, readFile, realpath, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { isDeepStrictEqual } from "node:util";
import JSON5 from "json5";
import {
  type ConfigIssue,
  MAX_CONFIG_FILE_BYTES,
  MAX_LISTED_CONFIG_ISSUES,
  parseConfigText,
  unusableConfigError,
  validateConfig,
} from "../../runtime/config/index.js";
import { ToolsiftError } from "../../shared/errors/index.js";
import { applyConfigEdit } from "./apply-config-edit.js";
import { type ConfigEdit, editConfigText } from "./edit-config-text.js";
import { MAX_BACKUP_ATTEMPTS } from "./limits.js";
import { describeWriteError, NEW_CONFIG_FILE_MODE, writeConfigFile } from "./write-config-file.js";

/** Text a missing or blank config file is edited from. */
const EMPTY_CONFIG_TEXT = "{}\n";

/** Mode of a config directory `config set` creates. */
const NEW_CONFIG_DIR_MODE = 0o700;

/** A config file as an editor reads it. */
export interface ConfigSource {
  /** The path as given. */
  file: string;
  /** Where writes go: the file with symbolic links resolved (the path itself when it does not exist). */
  target: string;
  /** The file's text; undefined when it does not exist. */
  text: string | undefined;
  /** The file's bytes as read (a backup copies these); undefined when it does not exist. */
  bytes: Buffer | undefined;
  /** The file's permission bits; undefined when it does not exist. */
  mode: number | undefined;
}

/** Inputs of {@link editConfigFile}. */
export interface EditConfigFileOptions {
  /** The config file (absolute, or relative to the working directory); created when missing. */
  file: string;
  /** Applied in order; all or nothing. */
  edits: readonly ConfigEdit[];
  /** Copy the old bytes to `<file>.bak-<timestamp>` before replacing the file. Default `false`. */
  backup?: boolean;
}

/** What {@link editConfigFile} did. */
export interface EditConfigFileResult {
  /** The file written (symbolic links resolved). */
  file: string;
  /** True when the file did not exist before. */
  created: boolean;
  /** False when the edits left the text as it was (nothing was written). */
  changed: boolean;
  /** The new text of the file. */
  text: string;
  /** The new parsed value (before `env:` resolution). */
  value: unknown;
  /** Problems the file had before and still has; the edits added none. */
  remainingIssues: ConfigIssue[];
  /** The backup of the old bytes, when one was asked for and the file existed. */
  backupPath?: string;
}

/**
 * Reads a config file for editing: `text` undefined when it does not exist. Refuses (CONFIG_INVALID) a path
 * that is not a regular file, cannot be read, or is larger than MAX_CONFIG_FILE_BYTES.
 */
export async function readConfigSource(file: string): Promise<ConfigSource> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT")
      return { file, target: file, text: undefined, bytes: undefined, mode: undefined };
    throw unusableConfigError(file, `cannot be read (${describeWriteError(error)}).`, error);
  }
  if (!info.isFile())
    throw unusableConfigError(file, "is not a regular file; point --config at a JSON5 file.");
  if (info.size > MAX_CONFIG_FILE_BYTES) {
    throw unusableConfigError(
      file,
      `the file is ${info.size} bytes; the limit is ${MAX_CONFIG_FILE_BYTES} bytes. Is this the right file?`,
    );
  }
  try {
    const target = await realpath(file);
    const bytes = await readFile(target);
    return { file, target, text: bytes.toString("utf8"), bytes, mode: info.mode & 0o777 };
  } catch (error) {
    throw unusableConfigError(file, `cannot be read (${describeWriteError(error)}).`, error);
  }
}

/**
 * Edits a config file in place: reads it (missing means `{}`), applies the edits to the parsed value and
 * validates the whole result, then changes only the edited spans of the text (comments and formatting elsewhere
 * stay), checks that the new text parses to exactly the validated value, and writes it atomically (temp file,
 * fsync, rename; the file's permissions are kept). An edit that adds a problem is refused (CONFIG_INVALID,
 * `path: reason` lines) and nothing is written; problems the file already had do not block an edit that
 * leaves them as they were, so a broken file can be repaired one key at a time.
 */
export async function editConfigFile(options: EditConfigFileOptions): Promise<EditConfigFileResult> {
  const source = await readConfigSource(options.file);
  const blank = source.text === undefined || source.text.trim() === "";
  const before = blank ? {} : parseConfigText(source.text as string, source.file);
  let after: unknown = before;
  for (const edit of options.edits) after = applyConfigEdit(after, edit);

  const known = new Set(validateConfig(before).map(issueKey));
  const remainingIssues = validateConfig(after);
  const added = remainingIssues.filter((issue) => !known.has(issueKey(issue)));
  if (added.length > 0) throw refusedEditError(source.file, added);

  const text = editConfigText(blank ? EMPTY_CONFIG_TEXT : (source.text as string), options.edits);
  if (!isDeepStrictEqual(parseOrUndefined(text), after)) {
    throw new ToolsiftError(
      "INTERNAL",
      `Could not edit ${source.file} without disturbing the rest of it. The file was not changed; edit it by hand.`,
    );
  }
  const result: EditConfigFileResult = {
    file: source.target,
    created: source.text === undefined,
    changed: text !== source.text,
    text,
    value: after,
    remainingIssues,
  };
  if (!result.changed) return result;

  if (source.text === undefined) {
    await mkdir(dirname(source.target), { recursive: true, mode: NEW_CONFIG_DIR_MODE }).catch((error) => {
      throw new ToolsiftError(
        "CONFIG_INVALID",
        `Could not create the directory of ${source.file} (${describeWriteError(error)}). Nothing was changed.`,
        { cause: error },
      );
    });
  } else if (options.backup === true) {
    result.backupPath = await writeBackup(source.target, source.bytes ?? Buffer.alloc(0), source.mode);
  }
  await writeConfigFile(source.target, text, { mode: source.mode });
  return result;
}

function issueKey(issue: ConfigIssue): string {
  return `${issue.path}\u0000${issue.message}`;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return undefined;
  }
}

function refusedEditError(file: string, issues: readonly ConfigIssue[]): ToolsiftError {
  const listed = issues.slice(0, MAX_LISTED_CONFIG_ISSUES).map((issue) => `${issue.path}: ${issue.message}`);
  const hidden = issues.length - listed.length;
  if (hidden > 0) listed.push(`… and ${hidden} more problem${hidden === 1 ? "" : "s"}`);
  return new ToolsiftError(
    "CONFIG_INVALID",
    [`Refused: the change would make ${file} invalid:`, ...listed, "The file was not changed."].join("\n"),
  );
}

/** Writes the old bytes to `<file>.bak-<timestamp>` (never over an existing file) and returns its path. */
async function writeBackup(file: string, bytes: Buffer, mode: number | undefined): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/gu, "-");
  for (let attempt = 1; attempt <= MAX_BACKUP_ATTEMPTS; attempt += 1) {
    const path = `${file}.bak-${stamp}${attempt === 1 ? "" : `-${attempt}`}`;
    try {
      const handle = await open(path, "wx", mode ?? NEW_CONFIG_FILE_MODE);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return path;
    } catch (error) {
      if ((error as { code?: unknown }).code === "EEXIST" && attempt < MAX_BACKUP_ATTEMPTS) continue;
      throw new ToolsiftError(
        "CONFIG_INVALID",
        `Could not back up ${file} to ${path} (${describeWriteError(error)}). The file was not changed.`,
        { cause: error },
      );
    }
  }
  throw new ToolsiftError("INTERNAL", `Could not back up ${file}. The file was not changed.`);
}
