import { REDACTED } from "./redact-secrets.js";
import { isSecretKeyName, keyWords } from "./secret-key-name.js";

/** Credentials recognisable by their shape alone; each whole match becomes REDACTED. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  // OpenAI-style keys: sk-..., sk-proj-..., sk-ant-... (and Stripe-style sk_live_/rk_live_).
  /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}/g,
  /(?<![A-Za-z0-9])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
  // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
  /(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/g,
  // Slack tokens.
  /(?<![A-Za-z0-9])xox[bpars]-[A-Za-z0-9-]{10,}/g,
  // AWS access key ids (long-term and temporary).
  /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  // Google API keys.
  /(?<![A-Za-z0-9])AIza[A-Za-z0-9_-]{35}/g,
  // JSON Web Tokens (header.payload.signature).
  /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** A PEM private key block: the header is kept, the base64 body (up to the next `-`) is redacted. */
const PEM_PRIVATE_KEY = /(-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----)[A-Za-z0-9+/=\s\\]+/g;

/** `scheme://user:password@host` (also `redis://:password@host`): the password is redacted. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/?#@]{0,256}:)[^\s/?#@]{1,256}@/gi;

/**
 * `scheme://<token>@host`: a user part of 16 or more token characters and no password is a key (a Sentry DSN
 * `https://<key>@o1.ingest.sentry.io/2`, a token in a clone URL): it is redacted.
 */
const URL_TOKEN_USER = /\b([a-z][a-z0-9+.-]{0,30}:\/\/)[A-Za-z0-9_-]{16,256}@/gi;

/** Webhook URLs whose path is the credential (Slack, Discord): the path after the fixed prefix is redacted. */
const WEBHOOK_URLS: readonly RegExp[] = [
  /\b(https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]+/gi,
  /\b(https?:\/\/(?:[a-z]+\.)?discord(?:app)?\.com\/api\/webhooks\/)[A-Za-z0-9_/-]+/gi,
];

/**
 * A secret told in prose: `my password is hunter2`, `the API key is …`, `PIN was 4821`. The value
 * is redacted only when it looks like one (proseValueIsSecret), so `the password is incorrect` stays.
 */
const PROSE_SECRET =
  /\b(passwords?|passphrase|passcode|passwd|pwd|pin|otp|api[ _-]?key|secret(?:[ _-]key)?|access[ _-]token|token)(\s+(?:is set to|is now|set to|was|is)\s+)(["'`]?)([^\s"'`]{1,256})/gi;

/** The start of `name=value`, `name: value`, `"name": "value"`, `?name=value&...`. */
const ASSIGNMENT_HEAD = /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})(["']?[ \t]*[:=][ \t]*)/g;

/** The value after an assignment head (sticky): quoted (a torn quote runs to the line end), or up to a separator, with an optional auth scheme. */
const ASSIGNMENT_VALUE =
  /"(?:[^"\\\r\n]|\\.)*"?|'(?:[^'\\\r\n]|\\.)*'?|(?:(?:Bearer|Basic|Token|Digest)[ \t]+)?[^\s&"',;<>()[\]{}]+/iy;

/** `Bearer <token>` anywhere (an Authorization header quoted in text or an error message). */
const BEARER = /\b(Bearer)[ \t]+[A-Za-z0-9\-._~+/]+=*/gi;

const AUTH_SCHEME = /^(?:Bearer|Basic|Token|Digest)$/i;
const SCHEME_PREFIX = /^((?:Bearer|Basic|Token|Digest)[ \t]+)/i;

/**
 * A literal every match of PEM_PRIVATE_KEY, TOKEN_PATTERNS or BEARER contains (case-insensitively): a text
 * without one is left unchanged by them. Replacements never introduce one (`[REDACTED]`, kept prefixes).
 */
const SHAPE_MARKERS =
  /-----BEGIN |sk-|k_(?:live|test)_|gh[pousr]_|github_pat_|xox[bpars]-|AKIA|ASIA|AIza|eyJ|bearer/i;

/** Values of a secret-named assignment that are code, not a secret (`token = await …`, `apiKey = process.env.…`). */
const CODE_VALUES =
  /^(?:await|new|null|undefined|None|nil|true|false|True|False|this|self|process\.env\.[A-Za-z0-9_.]*|os\.environ\S*|os\.getenv|getenv|ENV\[\S*)$/;

/** A placeholder where a secret would go (`Bearer TOKEN`, `api_key=YOUR_API_KEY`, `<token>`, `***`): nothing to hide. */
const PLACEHOLDER =
  /^(?:<[^<>]{1,64}>|\{\{?[^{}]{1,64}\}\}?|\*{3,}|x{3,}|X{3,}|\.{3}|…|(?:YOUR|MY)?[A-Z_-]*(?:TOKEN|KEY|SECRET|PASSWORD|PASS|PWD|PIN)[A-Z_-]*)$/;

/** Every match of URL_CREDENTIALS and ASSIGNMENT_HEAD contains `:` or `=`: a text without either is left unchanged by them. */
const ASSIGNMENT_MARKERS = /[:=]/;

/** Every match of URL_CREDENTIALS contains `://`. */
const URL_MARKER = "://";

/**
 * What every secret-like name contains (see isSecretKeyName), so a text without it has no assignment (and no
 * prose secret) to redact: a SECRET_WORDS or SECRET_LAST_WORDS word (`passw` covers password and passwd;
 * secrets, credentials contain their singular; `otp` covers totp), the start of a SECRET_JOINED run that
 * ends in neither key nor token (connection, webhook, phrase), or `key`, `token` or `secret` with only
 * separators between the letters (the last letters of the other runs, and the last word `token`).
 * Case-insensitive, as the names are.
 */
const SECRET_NAME_HINT =
  /passw|passphrase|passcode|pwd|pin|otp|cvv|cvc|dsn|mnemonic|connection|webhook|phrase|authorization|cookie|credential|k[^A-Za-z0-9]*e[^A-Za-z0-9]*y|t[^A-Za-z0-9]*o[^A-Za-z0-9]*k[^A-Za-z0-9]*e[^A-Za-z0-9]*n|s[^A-Za-z0-9]*e[^A-Za-z0-9]*c[^A-Za-z0-9]*r[^A-Za-z0-9]*e[^A-Za-z0-9]*t/i;

/** Names whose last word is also an ordinary word (`CVV: the code on the back`, `pin: true`). */
const WEAK_SECRET_LAST_WORDS: ReadonlySet<string> = new Set(["pin", "otp", "totp", "cvv", "cvc"]);

/** True when `name` is secret only by a WEAK_SECRET_LAST_WORDS word: its value must look like a secret too. */
function hasWeakSecretName(name: string): boolean {
  return WEAK_SECRET_LAST_WORDS.has(keyWords(name).at(-1) ?? "");
}

/** The redacted form of one assignment value, or undefined to keep it. */
function redactedValue(value: string): string | undefined {
  if (AUTH_SCHEME.test(value) || CODE_VALUES.test(value) || PLACEHOLDER.test(value)) return undefined;
  const quote = value[0];
  if (quote === '"' || quote === "'") {
    const closed = value.length >= 2 && value.endsWith(quote);
    if (value.length === (closed ? 2 : 1)) return undefined;
    return `${quote}${REDACTED}${closed ? quote : ""}`;
  }
  const scheme = SCHEME_PREFIX.exec(value)?.[1] ?? "";
  if (scheme !== "" && PLACEHOLDER.test(value.slice(scheme.length))) return undefined;
  return `${scheme}${REDACTED}`;
}

/** `Bearer <token>` redacted, unless the token is a placeholder (`Bearer TOKEN`, `Bearer <token>`). */
function redactBearer(match: string, scheme: string): string {
  return PLACEHOLDER.test(match.slice(scheme.length).trim()) ? match : `${scheme} ${REDACTED}`;
}

/**
 * Whether a value told in prose looks like a secret rather than a word: quoted, or looksLikeSecret
 * (`hunter2`, `4821`, `Tr0ub4dor&3`), and not a placeholder or code. `incorrect`, `case-sensitive` stay.
 */
function proseValueIsSecret(quote: string, value: string): boolean {
  if (value === REDACTED || PLACEHOLDER.test(value) || CODE_VALUES.test(value)) return false;
  if (quote !== "") return true;
  return looksLikeSecret(value);
}

/** 4 characters or more with a digit, a sign other than a hyphen, or a capital after the first letter. */
function looksLikeSecret(value: string): boolean {
  return value.length >= 4 && /[^A-Za-z-]|.[A-Z]/u.test(value);
}

/** The value of a secret told in prose, without the sentence's closing punctuation. */
function redactProse(text: string): string {
  return text.replace(PROSE_SECRET, (match, name: string, verb: string, quote: string, raw: string) => {
    const value = raw.replace(/[.,;:!?)\]]+$/u, "");
    if (!proseValueIsSecret(quote, value)) return match;
    return `${name}${verb}${quote}${REDACTED}${raw.slice(value.length)}`;
  });
}

/** Every URL rule: passwords, token user parts, webhook paths. */
function redactUrls(text: string): string {
  let out = text.replace(URL_CREDENTIALS, `$1${REDACTED}@`).replace(URL_TOKEN_USER, `$1${REDACTED}@`);
  for (const pattern of WEBHOOK_URLS) out = out.replace(pattern, `$1${REDACTED}`);
  return out;
}

/**
 * Redacts the values of secret-like assignments (isSecretKeyName on the name). A head whose name is not
 * secret consumes nothing after its separator, so `https://x?token=…` still reaches `token`.
 */
function redactAssignments(text: string): string {
  // The module's own patterns, rewound: this loop runs to its end synchronously and never re-enters itself.
  const head = ASSIGNMENT_HEAD;
  const value = ASSIGNMENT_VALUE;
  head.lastIndex = 0;
  let out = "";
  let copied = 0;
  for (let match = head.exec(text); match !== null; match = head.exec(text)) {
    const name = match[1] ?? "";
    if (!isSecretKeyName(name)) continue;
    value.lastIndex = head.lastIndex;
    const found = value.exec(text);
    if (found === null) continue;
    const replacement =
      hasWeakSecretName(name) && !looksLikeSecret(found[0]) ? undefined : redactedValue(found[0]);
    head.lastIndex = value.lastIndex;
    if (replacement === undefined) continue;
    out += text.slice(copied, found.index) + replacement;
    copied = value.lastIndex;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * `text` with recognisable secrets replaced by `[REDACTED]`: API keys and tokens by their shape (OpenAI
 * `sk-…`, GitHub `ghp_…`/`github_pat_…`, Slack `xox?-…`, AWS `AKIA…`, Google `AIza…`, JWTs, PEM private
 * keys), `Bearer <token>`, URL passwords and token user parts (Sentry DSNs), Slack and Discord webhook
 * paths, the values of secret-like assignments (`password=…`, `token: …`, `"apiKey": "…"`, `Pwd=…;`) and
 * secrets told in prose (`my password is hunter2`). Placeholders (`Bearer TOKEN`, `<api-key>`) and code
 * (`token = await …`, `process.env.…`) are kept. Linear-time patterns only; errs towards redacting.
 */
export function redactText(text: string): string {
  const shaped = SHAPE_MARKERS.test(text);
  const assigned = ASSIGNMENT_MARKERS.test(text);
  const named = SECRET_NAME_HINT.test(text);
  // Most logged strings (ids, words, numbers) hold no marker at all: no pattern can match, nothing is copied.
  if (!shaped && !assigned && !named) return text;
  let out = text;
  if (shaped) {
    out = out.replace(PEM_PRIVATE_KEY, `$1${REDACTED}`);
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  }
  // Each step only where its pattern can match (checked on the text it is given): most texts with a `:`
  // (times, ids, sentences) hold neither a URL nor a secret-like name.
  if (assigned && out.includes(URL_MARKER)) out = redactUrls(out);
  if (SECRET_NAME_HINT.test(out)) {
    if (assigned) out = redactAssignments(out);
    out = redactProse(out);
  }
  return shaped ? out.replace(BEARER, redactBearer) : out;
}

/**
 * redactText without any of its shortcuts: every pattern applied to every text. The same answer for every
 * text (the shortcuts skip only patterns that cannot match); for tests that prove it.
 */
export function redactTextWithoutShortcuts(text: string): string {
  let out = text.replace(PEM_PRIVATE_KEY, `$1${REDACTED}`);
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = redactUrls(out);
  out = redactAssignments(out);
  out = redactProse(out);
  return out.replace(BEARER, redactBearer);
}
