import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets.js";
import { redactText } from "./redact-text.js";
import { ORDINARY_OUTPUTS, ordinaryCorpus, sealToolsAvailable } from "./redaction-corpus.test-support.js";
import { isSecretKeyName } from "./secret-key-name.js";

// Argument names, prose and URLs that look like secrets or only resemble them, each with its outcome, and the
// false positives measured on ordinary tool outputs.

/** Argument names: secret (`true`) or a setting or ordinary word that only looks like one (`false`). */
const KEY_PROBES: ReadonlyArray<readonly [key: string, secret: boolean]> = [
  ["pwd", true],
  ["db_pwd", true],
  ["Pwd", true],
  ["pin", true],
  ["userPin", true],
  ["pin_code", true],
  ["dsn", true],
  ["SENTRY_DSN", true],
  ["connectionString", true],
  ["connection_string", true],
  ["DATABASE_CONNECTION_STRING", true],
  ["webhookUrl", true],
  ["webhook_url", true],
  ["slackWebhookUrl", true],
  ["mnemonic", true],
  ["seed_phrase", true],
  ["seedPhrase", true],
  ["recovery_phrase", true],
  ["private_key", true],
  ["passphrase", true],
  ["passcode", true],
  ["otp", true],
  ["totp", true],
  ["otp_code", true],
  ["cvv", true],
  ["card_cvc", true],
  ["password", true],
  ["access_token", true],
  // Settings about secrets, and words that only contain the letters.
  ["passwordPolicy", false],
  ["password_meets_policy", false],
  ["pin_length", false],
  ["pinCount", false],
  ["otpDigits", false],
  ["otp_enabled", false],
  ["token_type", false],
  ["tokenCount", false],
  ["pinned", false],
  ["spin", false],
  ["shipping", false],
  ["opinion", false],
  ["webhook_id", false],
  ["connection_timeout", false],
];

/** Text probes: the input, and what redactText makes of it. */
const TEXT_PROBES: ReadonlyArray<readonly [probe: string, input: string, expected: string]> = [
  ["prose: my password is", "my password is hunter2", "my password is [REDACTED]"],
  ["prose: password was, quoted", "the password was 'swordfish'.", "the password was '[REDACTED]'."],
  ["prose: the API key is", "the API key is a1b2c3d4e5", "the API key is [REDACTED]"],
  ["prose: PIN is", "Your PIN is 4821.", "Your PIN is [REDACTED]."],
  ["prose: token is set to", "token is set to Xy9-abc_123", "token is set to [REDACTED]"],
  ["prose: a word, not a secret", "the password is incorrect", "the password is incorrect"],
  ["prose: hyphenated word", "the password is case-sensitive.", "the password is case-sensitive."],
  ["prose: expired token", "The token is expired; sign in again.", "The token is expired; sign in again."],
  ["assignment: password:", "password: hunter2", "password: [REDACTED]"],
  ["assignment: ODBC Pwd", "Server=db;Uid=sa;Pwd=S3cret!;", "Server=db;Uid=sa;Pwd=[REDACTED];"],
  ["assignment: dsn", "dsn=postgres://u@db/app", "dsn=[REDACTED]"],
  ["assignment: otp", "otp: 123456", "otp: [REDACTED]"],
  ["assignment: CVV as a word", "CVV: the 3-digit code on the back", "CVV: the 3-digit code on the back"],
  ["assignment: code, not a value", "const token = await getToken();", "const token = await getToken();"],
  [
    "assignment: env reference",
    "apiKey = process.env.OPENAI_API_KEY;",
    "apiKey = process.env.OPENAI_API_KEY;",
  ],
  ["assignment: placeholder", "api_key=YOUR_API_KEY", "api_key=YOUR_API_KEY"],
  ["Bearer placeholder", "Authorization: Bearer TOKEN", "Authorization: Bearer TOKEN"],
  ["Bearer token", "Authorization: Bearer abc123", "Authorization: Bearer [REDACTED]"],
  [
    "Slack webhook",
    "post to https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX now",
    "post to https://hooks.slack.com/services/[REDACTED] now",
  ],
  [
    "Discord webhook",
    "https://discord.com/api/webhooks/123456789012345678/AbC-dEf_GhI",
    "https://discord.com/api/webhooks/[REDACTED]",
  ],
  [
    "Sentry DSN",
    "SENTRY: https://0123456789abcdef0123456789abcdef@o123.ingest.sentry.io/456",
    "SENTRY: https://[REDACTED]@o123.ingest.sentry.io/456",
  ],
  ["postgres connection string", "postgres://user:pass@host/db", "postgres://user:[REDACTED]@host/db"],
  [
    "MongoDB SRV connection string",
    "mongodb+srv://app:Sup3rS3cret@cluster0.abcde.mongodb.net/prod?retryWrites=true",
    "mongodb+srv://app:[REDACTED]@cluster0.abcde.mongodb.net/prod?retryWrites=true",
  ],
  ["Redis URL without a user", "redis://:s3cret@cache:6379/0", "redis://:[REDACTED]@cache:6379/0"],
  ["a URL with a short user only", "ftp://anonymous@host/", "ftp://anonymous@host/"],
  [
    "the Slack docs page",
    "See https://hooks.slack.com for the docs.",
    "See https://hooks.slack.com for the docs.",
  ],
];

describe("redaction gaps: names, prose and URLs", () => {
  it.each(KEY_PROBES)("key %s is secret: %s", (key, secret) => {
    expect(isSecretKeyName(key)).toBe(secret);
    const redacted = redactSecrets({ [key]: "v4lue-9" }) as Record<string, unknown>;
    expect(redacted[key]).toBe(secret ? "[REDACTED]" : "v4lue-9");
  });

  it.each(TEXT_PROBES)("%s", (_probe, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it("keeps the schema of a secret-named parameter, and still hides a secret-named value", () => {
    const listing = {
      name: "login",
      parameters: { password: { type: "str", description: "The user's password" }, pin: { type: "int" } },
    };
    expect(redactSecrets(listing)).toEqual(listing);
    expect(redactSecrets({ password: { type: "str", default: "hunter2" } })).toEqual({
      password: "[REDACTED]",
    });
    expect(redactSecrets({ credentials: { user: "bob", pass: "x" } })).toEqual({ credentials: "[REDACTED]" });
  });

  it("changes no ordinary tool output, only those that really hold a secret", () => {
    const corpus = ordinaryCorpus();
    const changed = corpus.filter((text) => redactSecrets(text) !== text);
    for (const text of ORDINARY_OUTPUTS) expect(redactSecrets(text), text).toBe(text);
    // The Seal-Tools queries whose call arguments hold a password, a PIN, credentials or an access token.
    const secretHolding = sealToolsAvailable
      ? [
          "dev-easy-199",
          "dev-difficult-220",
          "dev-difficult-271",
          "dev-difficult-370",
          "dev-difficult-382",
          "dev-difficult-552",
        ]
      : [];
    expect(changed.map((text) => (JSON.parse(text) as { id?: string }).id)).toEqual(secretHolding);
    if (sealToolsAvailable) expect(corpus.length).toBeGreaterThan(18_000);
  });
});
