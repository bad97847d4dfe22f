/** Config path of the Tool Search settings, used in every message about them. */
export const TOOL_SEARCH_CONFIG_PATH = "tools.toolSearch";

/** Default `searchDefaultLimit`: results per query when the model gives no limit. */
export const DEFAULT_SEARCH_DEFAULT_LIMIT = 8;
/** Default `maxSearchLimit`: the cap on any requested limit. */
export const DEFAULT_MAX_SEARCH_LIMIT = 20;
/** Automatic `searchDefaultLimit` for local models when `tools.toolSearch` is unset. */
export const LOCAL_SEARCH_DEFAULT_LIMIT = 5;
/** Automatic `maxSearchLimit` for local models when `tools.toolSearch` is unset. */
export const LOCAL_MAX_SEARCH_LIMIT = 10;
/** Highest `maxSearchLimit` accepted; larger values are clamped to it. */
export const MAX_SEARCH_LIMIT_CEILING = 50;
/** Lowest value either limit can take. */
export const MIN_SEARCH_LIMIT = 1;

/** The command that migrates retired keys, named in every retired-key error. */
export const MIGRATION_COMMAND = "toolsift doctor --fix";

/** Longest received key or value quoted in a config message; longer ones are cut with "...". */
export const LONGEST_SHOWN_VALUE = 48;

/** File name of the config file inside `$TOOLSIFT_HOME`. */
export const CONFIG_FILE_NAME = "toolsift.json";
/** Folder under the user's home directory used when `TOOLSIFT_HOME` is unset. */
export const DEFAULT_HOME_FOLDER = ".toolsift";
/** Folder under the home directory used for state when `TOOLSIFT_STATE_DIR` is unset. */
export const STATE_FOLDER = "state";
/** Largest config file read; a larger one is refused before it is parsed. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;
/** Deepest nesting of objects and arrays accepted in a config file. */
export const MAX_CONFIG_DEPTH = 32;
/** Most problems listed in one CONFIG_INVALID message; the rest are counted. */
export const MAX_LISTED_CONFIG_ISSUES = 100;
/** Prefix of a string value read from the environment (`"env:NAME"`). */
export const ENV_REFERENCE_PREFIX = "env:";

/** Model used when neither the agent nor `agents.defaults` names one. */
export const DEFAULT_AGENT_MODEL = "openai/gpt-5.4-mini";
/** Provider assumed for a model string without `provider/`. */
export const DEFAULT_MODEL_PROVIDER = "openai";
/** The agent that always exists, with or without an `agents.list` entry. */
export const MAIN_AGENT_ID = "main";
/** Default most model requests in one run. */
export const DEFAULT_MAX_TURNS = 24;
/** Highest `maxTurns` accepted. */
export const MAX_TURNS_CEILING = 1000;
/** Default wall-clock limit of one run in ms (10 minutes). */
export const DEFAULT_RUN_TIMEOUT_MS = 600_000;
/** Highest timeout accepted anywhere in the file, in ms (24 hours). */
export const MAX_TIMEOUT_MS = 86_400_000;
/** Highest `maxRetries` accepted for a provider. */
export const MAX_PROVIDER_RETRIES = 10;
/** Highest `contextWindowTokens` accepted. */
export const MAX_CONTEXT_WINDOW_TOKENS = 100_000_000;
/** Highest `gateway.maxBodyBytes` accepted (256 MiB). */
export const MAX_GATEWAY_BODY_BYTES = 256 * 1024 * 1024;
/** Highest `gateway.maxQueuedPerSession` accepted. */
export const MAX_QUEUED_PER_SESSION_CEILING = 1000;
/** Folder under the state directory holding default agent workspaces. */
export const WORKSPACE_FOLDER = "workspace";

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
