/** Words that mark a key as secret wherever they appear in it (`db_password`, `clientSecret`, `Cookie`). */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  "password",
  "passwd",
  "passphrase",
  "secret",
  "secrets",
  "authorization",
  "cookie",
  "credential",
  "credentials",
]);

/** Runs of letters that mark a key as secret wherever they appear once the words are joined (`x-api-key`). */
const SECRET_JOINED = ["apikey", "privatekey", "accesskey", "accesstoken", "refreshtoken", "clientsecret"];

/** The words of a key: camelCase humps and runs between `_`, `-`, `.`, spaces, lowercased. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * True when a property (or assignment) named `key` holds a secret: one of its words is a SECRET_WORDS
 * word, its last word is `token` (`access_token`, `githubToken`, not `inputTokens` or `tokenCount`), or
 * its joined words contain `apikey`, `privatekey`, `accesskey`, `accesstoken`, `refreshtoken` or
 * `clientsecret`. Case-insensitive; errs towards redacting.
 */
export function isSecretKeyName(key: string): boolean {
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = judgeKeyName(key);
  // Keys repeat across every logged event (`type`, `text`, `callId`): remembered, within a bound.
  if (verdicts.size >= MAX_REMEMBERED_KEY_NAMES) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

/** How many key names keep their verdict; past it the memory starts afresh. */
const MAX_REMEMBERED_KEY_NAMES = 4096;
const verdicts = new Map<string, boolean>();

function judgeKeyName(key: string): boolean {
  const words = keyWords(key);
  if (words.length === 0) return false;
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  if (words[words.length - 1] === "token") return true;
  const joined = words.join("");
  return SECRET_JOINED.some((run) => joined.includes(run));
}
