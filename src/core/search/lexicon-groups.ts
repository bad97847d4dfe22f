/** Request words that mean a tool word: what a user types (`triggers`) and what tools call it (`adds`). */
export type LexiconGroup = {
  /** What the words mean (documentation only). */
  readonly meaning: string;
  /**
   * Lowercase words (stemmed before matching) or two-word phrases (matched on consecutive query words). Where
   * a phrase matches, its first word's own groups do not fire there: `tell me` asks for information (`show`),
   * it does not send anything (`tell`).
   */
  readonly triggers: readonly string[];
  /** Words the tools of a catalog use for the same thing (stemmed before use). */
  readonly adds: readonly string[];
};

/**
 * The synonym lexicon: general English words for what tools do and what they act on, each mapped to the words
 * tool names and descriptions use for it (`tell` → `send`, `post`; `meeting` → `event`; `ticket` → `issue`).
 * Only everyday vocabulary of tool catalogs (verbs of the usual create / read / change / delete / send
 * operations and the objects of workplace tools), never vendor, product or server names, and no word that is
 * mostly a noun in tool catalogs where its group is about a verb (`book`, whose stem `booking` shares). A
 * synonym joins the query at `LEXICON_WEIGHT` and counts as typed (see DESIGN.md, "Synonym lexicon").
 */
export const LEXICON_GROUPS: readonly LexiconGroup[] = [
  // Operations.
  {
    meaning: "tell someone something",
    triggers: ["tell", "inform", "notify", "announce", "ping", "broadcast", "share"],
    adds: ["send", "post", "message", "notify"],
  },
  { meaning: "send a message", triggers: ["send", "post"], adds: ["send", "post"] },
  {
    meaning: "create",
    triggers: ["reserve", "register", "compose", "set up", "sign up"],
    adds: ["create", "add"],
  },
  {
    meaning: "remove",
    triggers: ["drop", "discard", "trash", "purge", "wipe"],
    adds: ["delete", "remove"],
  },
  {
    meaning: "change",
    triggers: ["alter", "revise", "rename", "amend", "tweak"],
    adds: ["update", "edit"],
  },
  { meaning: "find", triggers: ["find", "locate", "look for"], adds: ["search", "find"] },
  {
    meaning: "run",
    triggers: ["run", "execute", "trigger", "launch", "invoke", "kick off"],
    adds: ["run", "execute", "trigger"],
  },
  { meaning: "reply", triggers: ["reply", "respond", "answer"], adds: ["reply", "respond"] },
  { meaning: "approve", triggers: ["approve", "accept", "confirm"], adds: ["approve", "accept", "confirm"] },
  { meaning: "decline", triggers: ["decline", "reject", "deny", "refuse"], adds: ["decline", "reject"] },
  {
    meaning: "close",
    triggers: ["close", "resolve", "complete", "finish"],
    adds: ["close", "resolve", "complete"],
  },
  { meaning: "copy", triggers: ["copy", "duplicate", "clone"], adds: ["copy", "duplicate", "clone"] },
  { meaning: "move", triggers: ["move", "transfer", "relocate"], adds: ["move", "transfer"] },
  { meaning: "attach", triggers: ["attach", "upload"], adds: ["upload", "attach"] },
  { meaning: "save", triggers: ["save", "store"], adds: ["save", "write", "store"] },
  {
    meaning: "show",
    triggers: ["show", "display", "view", "tell me", "give me", "show me"],
    adds: ["get", "list"],
  },
  { meaning: "count", triggers: ["how many"], adds: ["count", "number"] },
  { meaning: "compare", triggers: ["compare", "diff"], adds: ["compare", "diff"] },
  // Objects.
  { meaning: "message", triggers: ["message", "chat", "dm"], adds: ["message", "chat"] },
  { meaning: "email", triggers: ["email", "mail", "inbox"], adds: ["email", "mail"] },
  {
    meaning: "meeting",
    triggers: ["meeting", "appointment", "event", "invitation"],
    adds: ["event", "meeting", "appointment"],
  },
  { meaning: "issue", triggers: ["issue", "ticket", "bug", "story"], adds: ["issue", "ticket"] },
  { meaning: "task", triggers: ["task", "todo"], adds: ["task", "todo", "issue"] },
  { meaning: "document", triggers: ["file", "document"], adds: ["file", "document"] },
  {
    meaning: "person",
    triggers: ["user", "member", "person", "people", "teammate", "colleague"],
    adds: ["user", "member"],
  },
  { meaning: "comment", triggers: ["comment", "note", "remark"], adds: ["comment", "note"] },
  { meaning: "image", triggers: ["image", "picture", "photo"], adds: ["image", "picture", "photo"] },
  {
    meaning: "web page",
    triggers: ["url", "link", "website", "site", "webpage"],
    adds: ["url", "link", "page"],
  },
  {
    meaning: "error",
    triggers: ["error", "exception", "crash", "failure"],
    adds: ["error", "exception", "crash"],
  },
  { meaning: "spreadsheet", triggers: ["spreadsheet", "sheet"], adds: ["spreadsheet", "sheet"] },
  { meaning: "calendar", triggers: ["calendar", "agenda"], adds: ["calendar", "event"] },
  { meaning: "customer", triggers: ["customer", "client"], adds: ["customer", "client"] },
  {
    meaning: "organisation",
    triggers: ["company", "organization", "organisation", "business"],
    adds: ["company", "organization"],
  },
  {
    meaning: "payment",
    triggers: ["payment", "charge", "transaction"],
    adds: ["payment", "charge", "transaction"],
  },
  { meaning: "order", triggers: ["order", "purchase"], adds: ["order", "purchase"] },
  {
    meaning: "setting",
    triggers: ["setting", "configuration", "option", "preference"],
    adds: ["setting", "configuration"],
  },
  { meaning: "status", triggers: ["status", "state"], adds: ["status", "state"] },
  { meaning: "label", triggers: ["label", "tag"], adds: ["label", "tag"] },
  { meaning: "team", triggers: ["team", "group"], adds: ["team", "group"] },
  { meaning: "notification", triggers: ["notification", "alert"], adds: ["notification", "alert"] },
  { meaning: "vacation", triggers: ["vacation", "holiday"], adds: ["vacation", "holiday"] },
  { meaning: "price", triggers: ["price", "cost", "fee"], adds: ["price", "cost"] },
  { meaning: "record", triggers: ["row", "record", "entry"], adds: ["row", "record"] },
  { meaning: "location", triggers: ["location", "place"], adds: ["location", "place"] },
];
