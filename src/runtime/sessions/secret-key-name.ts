import { LRUCache } from "lru-cache";

/** Words that mark a key as secret wherever they appear in it (`db_password`, `clientSecret`, `Cookie`, `sentry_dsn`). */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "passcode",
  "secret",
  "secrets",
  "authorization",
  "cookie",
  "credential",
  "credentials",
  "dsn",
  "mnemonic",
]);

/** Words that mark a key as secret when they end it (`access_token`, `userPin`, `otp`), not before more words (`pinCount`, `otpDigits`). */
const SECRET_LAST_WORDS: ReadonlySet<string> = new Set(["token", "pin", "otp", "totp", "cvv", "cvc"]);

/** Runs of letters that mark a key as secret wherever they appear once the words are joined (`x-api-key`, `webhook_url`). */
const SECRET_JOINED = [
  "apikey",
  "privatekey",
  "accesskey",
  "accesstoken",
  "refreshtoken",
  "clientsecret",
  "connectionstring",
  "webhookurl",
  "seedphrase",
  "recoveryphrase",
  "pincode",
  "otpcode",
];

/**
 * Last words that make a key a setting about a secret, not a secret (`passwordPolicy`, `pin_length`,
 * `token_count`): they win over every other rule.
 */
const SETTING_LAST_WORDS: ReadonlySet<string> = new Set([
  "policy",
  "policies",
  "length",
  "count",
  "rules",
  "requirements",
  "strength",
  "enabled",
  "required",
  "type",
  "types",
]);

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
 * True when a property (or assignment) named `key` holds a secret: unless its last word names a setting
 * (SETTING_LAST_WORDS: `passwordPolicy`, `pin_length`), one of its words is a SECRET_WORDS word (password,
 * pwd, passcode, secret, cookie, credential, dsn, mnemonic, …), its last word is `token`, `pin`, `otp`,
 * `totp`, `cvv` or `cvc` (`access_token`, `userPin`, not `inputTokens` or `pinned`), or its joined words
 * contain a SECRET_JOINED run (apikey, privatekey, connectionstring, webhookurl, seedphrase, …).
 * Case-insensitive; errs towards redacting.
 */
export function isSecretKeyName(key: string): boolean {
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const verdict = judgeKeyName(key);
  verdicts.set(key, verdict);
  return verdict;
}

/** How many key names keep their verdict (least recently used dropped first). */
const MAX_REMEMBERED_KEY_NAMES = 4096;
/**
 * Keys repeat across every logged event (`type`, `text`, `callId`): their verdicts are remembered. A bounded
 * memo of a pure function of one string, so it stays module-level.
 */
const verdicts = new LRUCache<string, boolean>({ max: MAX_REMEMBERED_KEY_NAMES });

function judgeKeyName(key: string): boolean {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined || SETTING_LAST_WORDS.has(last)) return false;
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  if (SECRET_LAST_WORDS.has(last)) return true;
  const joined = words.join("");
  return SECRET_JOINED.some((run) => joined.includes(run));
}
