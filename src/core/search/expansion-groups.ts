/** One generic capability: query words (or two-word phrases) that trigger it, and the terms it adds. */
export type ExpansionGroup = {
  /** What the group stands for (documentation only). */
  readonly capability: string;
  /** Lowercase words (stemmed before matching) or two-word phrases (matched on consecutive query words). */
  readonly triggers: readonly string[];
  /** Words added to the query at the expansion weight (stemmed before use). */
  readonly adds: readonly string[];
};

/**
 * The intent expansion table: generic capabilities only, never vendor, product or plugin names. A typed word
 * never loses weight to an expansion; `new` and `news` are different words (`news` triggers nothing here).
 */
export const EXPANSION_GROUPS: readonly ExpansionGroup[] = [
  {
    capability: "web search",
    triggers: ["look up", "lookup", "search", "browse", "research", "internet", "online", "web", "find out"],
    adds: ["search", "web"],
  },
  {
    capability: "files and directories",
    triggers: ["directory", "folder", "dir", "ls", "filesystem", "path"],
    adds: ["file", "list", "directory", "folder"],
  },
  {
    capability: "scheduling",
    triggers: ["remind", "reminder", "tomorrow", "later", "alarm", "recurring", "schedule", "cron", "timer"],
    adds: ["schedule", "cron", "reminder"],
  },
  {
    capability: "shell commands",
    triggers: ["shell", "command", "terminal", "bash", "execute", "exec", "script", "cmd"],
    adds: ["exec", "process", "shell", "command"],
  },
  {
    capability: "reading data",
    triggers: ["retrieve", "fetch", "obtain", "lookup", "look up"],
    adds: ["get"],
  },
  {
    capability: "creating",
    triggers: ["create", "new", "add", "make", "generate"],
    adds: ["create", "add"],
  },
  {
    capability: "removing",
    triggers: ["delete", "remove", "erase", "cancel"],
    adds: ["delete", "remove"],
  },
  {
    capability: "changing",
    triggers: ["update", "modify", "change", "edit", "adjust"],
    adds: ["update", "edit"],
  },
  {
    capability: "messaging",
    triggers: ["send", "message", "email", "mail", "notify", "sms"],
    adds: ["send", "message", "email", "notify"],
  },
  {
    capability: "calculating",
    triggers: ["calculate", "compute", "estimate"],
    adds: ["calculate", "compute", "estimate"],
  },
  {
    capability: "analysing",
    triggers: ["analyze", "analyse", "analysis", "evaluate", "assess", "examine"],
    adds: ["analyze", "analysis", "evaluate", "assess"],
  },
];
