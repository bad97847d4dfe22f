/** One step of the PostgreSQL state schema: applied once, in order, inside the migration transaction. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The schema, oldest first. Never edit a released step: add the next one. Every step runs in one
 * transaction with the migration lock held (`migrate-schema.ts`), so a step is applied whole or not at all,
 * and gateways starting at once apply it once.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "sessions, stored responses, approvals, session run queue",
    sql: `
CREATE TABLE toolsift_sessions (
  agent_id text COLLATE "C" NOT NULL,
  session_key text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0),
  last_seq bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
  PRIMARY KEY (agent_id, session_key)
);
CREATE INDEX toolsift_sessions_created ON toolsift_sessions (created_at DESC, agent_id, session_key);
CREATE TABLE toolsift_session_events (
  agent_id text COLLATE "C" NOT NULL,
  session_key text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  line text NOT NULL,
  PRIMARY KEY (agent_id, session_key, seq),
  FOREIGN KEY (agent_id, session_key) REFERENCES toolsift_sessions (agent_id, session_key) ON DELETE CASCADE
);
CREATE TABLE toolsift_responses (
  id text PRIMARY KEY,
  agent_id text COLLATE "C" NOT NULL,
  session_key text COLLATE "C" NOT NULL,
  body text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX toolsift_responses_created ON toolsift_responses (created_at);
CREATE INDEX toolsift_responses_session ON toolsift_responses (agent_id, session_key);
CREATE TABLE toolsift_gateways (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  heartbeat_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE toolsift_approvals (
  id text PRIMARY KEY,
  request jsonb NOT NULL,
  key_id text,
  gateway_id text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decision text CHECK (decision IN ('allow', 'deny')),
  outcome text,
  reason text,
  decided_at timestamptz
);
CREATE INDEX toolsift_approvals_pending ON toolsift_approvals (created_at, id) WHERE decision IS NULL;
CREATE TABLE toolsift_session_runs (
  ticket text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  session_id text NOT NULL,
  gateway_id text NOT NULL,
  state text NOT NULL CHECK (state IN ('waiting', 'running')),
  enqueued_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX toolsift_session_runs_session ON toolsift_session_runs (session_id, seq);
CREATE UNIQUE INDEX toolsift_session_runs_one_running ON toolsift_session_runs (session_id) WHERE state = 'running';
`,
  },
  {
    version: 2,
    name: "console sessions; who decided an approval, and their note",
    sql: `
CREATE TABLE toolsift_console_sessions (
  id_digest bytea PRIMARY KEY CHECK (octet_length(id_digest) = 32),
  csrf text NOT NULL,
  key_id text COLLATE "C",
  seq bigint GENERATED ALWAYS AS IDENTITY,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  last_seen_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX toolsift_console_sessions_pending ON toolsift_console_sessions (created_at, seq) WHERE key_id IS NULL;
CREATE INDEX toolsift_console_sessions_signed_in ON toolsift_console_sessions (last_seen_at, seq) WHERE key_id IS NOT NULL;
CREATE INDEX toolsift_console_sessions_key ON toolsift_console_sessions (key_id, last_seen_at, seq) WHERE key_id IS NOT NULL;
ALTER TABLE toolsift_approvals ADD COLUMN decided_by text, ADD COLUMN note text;
`,
  },
];

/** The newest schema version this build knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((newest, step) => Math.max(newest, step.version), 0);
