import type { Command } from "commander";
import { loadConfig, MAIN_AGENT_ID } from "../../runtime/config/index.js";
import {
  createFileSessionStore,
  listSessionPage,
  SESSION_STATUSES,
  type SessionContentQuery,
  type SessionStore,
  type SessionSummary,
  summarizeSession,
} from "../../runtime/sessions/index.js";
import { EXIT_USAGE } from "./exit-codes.js";
import { DEFAULT_SESSIONS_LISTED, MAX_SESSIONS_LISTED } from "./limits.js";
import type { CliIo } from "./types.js";

/** The options of `toolsift sessions`. */
export type SessionsOptions = {
  json?: boolean;
  config?: string;
  limit?: string;
  after?: string;
  status?: string;
  contains?: string;
};
type ShowOptions = SessionsOptions & { agent?: string };

/**
 * What `toolsift sessions` does: lists one page of session logs, newest created first (`--limit`, default
 * 20, at most 100; `--after <agent/key>` for the page after that session), as text with a hint naming the
 * next page when there is one, or `--json` (the page's sessions; the hint goes to stderr). `--status` (the
 * last run's) and `--contains` (text in the user's input or the model's output, case-insensitive) search the
 * logs as `GET /v1/sessions` does, reading at most `MAX_CONTENT_SCAN_SESSIONS` sessions per page: when that
 * bound stops it, the hint goes on after the last session read. A bad `--limit`, `--after` or `--status` is
 * an error saying what to pass.
 */
export async function listSessions(options: SessionsOptions, io: CliIo): Promise<void> {
  const limit = options.limit === undefined ? DEFAULT_SESSIONS_LISTED : Number(options.limit);
  if (!/^[0-9]{1,4}$/u.test(options.limit ?? "1") || !(limit >= 1 && limit <= MAX_SESSIONS_LISTED))
    throw new Error(`--limit must be a whole number from 1 to ${MAX_SESSIONS_LISTED}; got ${options.limit}.`);
  const content = contentQuery(options);
  const page = await withStore(options.config, (store) =>
    listSessionPage(store, {
      limit,
      ...(options.after === undefined ? {} : { after: options.after }),
      ...(content === undefined ? {} : { content }),
    }),
  );
  // A search by content that stopped at its bound goes on after the last session it read.
  const next = page.scannedTo ?? page.data.at(-1)?.id;
  const hint =
    page.hasMore && next !== undefined
      ? `More sessions: toolsift sessions --after ${next}${options.limit === undefined ? "" : ` --limit ${limit}`}${filterArgs(options)}\n`
      : "";
  if (options.json) {
    io.stdout(`${JSON.stringify(page.data, null, 2)}\n`);
    if (hint !== "") io.stderr(hint);
  } else if (page.data.length === 0) {
    io.stdout(emptyPage(options, content !== undefined, page.hasMore));
    io.stdout(hint);
  } else {
    for (const item of page.data) io.stdout(`${item.updatedAt}  ${item.id}  ${item.bytes} bytes\n`);
    io.stdout(hint);
  }
}

/** `--status` and `--contains` as the store's content query; undefined without either. */
function contentQuery(options: SessionsOptions): SessionContentQuery | undefined {
  const { status, contains } = options;
  if (status === undefined && contains === undefined) return undefined;
  const known = SESSION_STATUSES.find((one) => one === status);
  if (status !== undefined && known === undefined) {
    throw new Error(`--status must be one of ${SESSION_STATUSES.join(", ")}; got ${JSON.stringify(status)}.`);
  }
  if (contains !== undefined && contains.trim() === "") {
    throw new Error("--contains must be some text to look for in the sessions' input and output.");
  }
  return {
    ...(known === undefined ? {} : { status: known }),
    ...(contains === undefined ? {} : { text: contains }),
  };
}

/** The filters again, for the next page's command (the text quoted for a POSIX shell). */
function filterArgs(options: SessionsOptions): string {
  const status = options.status === undefined ? "" : ` --status ${options.status}`;
  const contains =
    options.contains === undefined ? "" : ` --contains '${options.contains.replaceAll("'", "'\\''")}'`;
  return `${status}${contains}`;
}

/** What an empty page says: none at all, none left, or none matching among those read. */
function emptyPage(options: SessionsOptions, filtered: boolean, more: boolean): string {
  if (filtered)
    return more ? "No matching session among the sessions read so far.\n" : "No matching session.\n";
  return options.after === undefined ? "No sessions yet.\n" : "No more sessions.\n";
}

/**
 * What `toolsift sessions show <key>` does: prints one session's summary (text, or `--json` with its events).
 * A key and an `--agent` that disagree are a usage error of `command`.
 */
export async function showSession(
  { key, command }: { key: string; command: Command },
  io: CliIo,
): Promise<void> {
  // Options typed after the key are parsed by `sessions` too (it has the same ones): read both levels.
  const options = command.optsWithGlobals<ShowOptions>();
  const address = sessionAddress(key, options.agent);
  if ("conflict" in address) return command.error(address.conflict, { exitCode: EXIT_USAGE });
  const { agentId, sessionKey } = address;
  const { events, elsewhere } = await withStore(options.config, async (store) => {
    const read = await store.read(agentId, sessionKey);
    if (read.length > 0) return { events: read, elsewhere: [] };
    return { events: read, elsewhere: (await store.list()).filter((item) => item.sessionKey === sessionKey) };
  });
  if (events.length === 0) {
    const hint = elsewhere.map((item) => `${item.agentId}/${item.sessionKey}`).join(", ");
    throw new Error(
      `No session "${sessionKey}" for agent "${agentId}".${hint === "" ? "" : ` Did you mean ${hint}?`}`,
    );
  }
  const summary = summarizeSession(events);
  if (options.json) {
    io.stdout(`${JSON.stringify({ agentId, sessionKey, summary, events }, null, 2)}\n`);
    return;
  }
  const final = summary.finalTool ? `${summary.finalTool.id} (${summary.finalTool.source})` : "none";
  // The client key that opened it (gateway.auth.keys), when one did.
  const header = events[0]?.type === "session" ? events[0] : undefined;
  io.stdout(
    [
      `session ${agentId}/${sessionKey}: ${events.length} events, ${summary.requests} model requests`,
      ...(header?.keyId === undefined ? [] : [`opened by key: ${header.keyId}`]),
      `schemas declared up front: ${describeUpFront(summary)}`,
      `searches: ${summary.searches}, describes: ${summary.describes}, calls: ${summary.calls}`,
      `final tool: ${final}`,
      `last run: ${describeLastRun(summary)}`,
      "",
    ].join("\n"),
  );
}

/**
 * `agent/key` as `toolsift sessions` lists it, or a bare key for `--agent` (default main). Neither part can
 * hold a `/` (both are path segments), so the first `/` splits them.
 */
function sessionAddress(
  key: string,
  agent: string | undefined,
): { agentId: string; sessionKey: string } | { conflict: string } {
  const slash = key.indexOf("/");
  if (slash === -1) return { agentId: agent ?? MAIN_AGENT_ID, sessionKey: key };
  const agentId = key.slice(0, slash);
  if (agent !== undefined && agent !== agentId) {
    return {
      conflict: `error: ${JSON.stringify(key)} names agent "${agentId}" but --agent says "${agent}"; give only one of them.`,
    };
  }
  return { agentId, sessionKey: key.slice(slash + 1) };
}

/** The up-front schema count of the last run, or why there is none. */
function describeUpFront(summary: SessionSummary): string {
  if (summary.schemasDeclaredUpFront !== undefined) return String(summary.schemasDeclaredUpFront);
  if (summary.requests === 0) return "none (no model request in this session)";
  const last = summary.runs[summary.runs.length - 1];
  if (last !== undefined && last.requests === 0)
    return "none (the last run ended before its first model request)";
  return "not recorded (the log's model request has no tool count)";
}

/**
 * Runs `work` on the session store the gateway writes: the database of `state.url` (a small pool, ended
 * afterwards; the driver loads only then), else the files under the state directory.
 */
async function withStore<T>(
  configPath: string | undefined,
  work: (store: SessionStore) => Promise<T>,
): Promise<T> {
  const loaded = await loadConfig(configPath ? { configPath } : {});
  if (loaded.stateUrl === undefined) return work(createFileSessionStore(loaded.stateDir));
  const { createPostgresSessionStore, openPostgresPool } = await import(
    "../../runtime/state-postgres/index.js"
  );
  const db = openPostgresPool(loaded.stateUrl, { max: 2 });
  try {
    return await work(createPostgresSessionStore(db));
  } finally {
    await db.end();
  }
}

/** How the session's last run ended, as its run summary says (`failed (CANCELLED: …)`). */
function describeLastRun(summary: ReturnType<typeof summarizeSession>): string {
  const last = summary.runs.at(-1);
  if (last?.status === undefined) return "no run summary (the run is still going, or it was cut off)";
  return last.error === undefined ? last.status : `${last.status} (${last.error})`;
}
