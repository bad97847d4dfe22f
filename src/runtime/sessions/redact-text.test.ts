import { describe, expect, it } from "vitest";
import { redactText } from "./redact-text.js";
import { isSecretKeyName } from "./secret-key-name.js";

const OPENAI_KEY = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL";
const OPENAI_PROJECT_KEY = "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56_Qr78-St90";
const GITHUB_CLASSIC = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const GITHUB_FINE = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz";
const SLACK_BOT = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
const AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
const GOOGLE_KEY = "AIzaSyA1234567890abcdefghijklmnopqrstuv";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

describe("redactText", () => {
  const cases: Array<{ probe: string; input: string; expected: string }> = [
    { probe: "OpenAI key", input: `key ${OPENAI_KEY} here`, expected: "key [REDACTED] here" },
    { probe: "OpenAI project key", input: `use ${OPENAI_PROJECT_KEY}.`, expected: "use [REDACTED]." },
    { probe: "GitHub classic token", input: `(${GITHUB_CLASSIC})`, expected: "([REDACTED])" },
    { probe: "GitHub fine-grained token", input: GITHUB_FINE, expected: "[REDACTED]" },
    { probe: "Slack token", input: `slack ${SLACK_BOT}`, expected: "slack [REDACTED]" },
    { probe: "Slack user token", input: "xoxp-1234567890-abcdef", expected: "[REDACTED]" },
    { probe: "AWS access key id", input: `aws ${AWS_KEY_ID} ok`, expected: "aws [REDACTED] ok" },
    { probe: "Google API key", input: GOOGLE_KEY, expected: "[REDACTED]" },
    { probe: "JWT", input: `jwt=${JWT}`, expected: "jwt=[REDACTED]" },
    { probe: "Bearer token", input: "Bearer abc.DEF-123_xyz=", expected: "Bearer [REDACTED]" },
    {
      probe: "Authorization header",
      input: "Authorization: Bearer abc123",
      expected: "Authorization: Bearer [REDACTED]",
    },
    {
      probe: "Basic authorization header",
      input: "Authorization: Basic dXNlcjpwYXNz",
      expected: "Authorization: Basic [REDACTED]",
    },
    { probe: "password assignment", input: "password=hunter2", expected: "password=[REDACTED]" },
    { probe: "token assignment", input: "token=abc&page=2", expected: "token=[REDACTED]&page=2" },
    { probe: "secret assignment", input: "secret = s3cr3t", expected: "secret = [REDACTED]" },
    {
      probe: "query string",
      input: "https://x.test/cb?access_token=abc123&client_secret=xyz&state=ok",
      expected: "https://x.test/cb?access_token=[REDACTED]&client_secret=[REDACTED]&state=ok",
    },
    {
      probe: "env assignment",
      input: "DB_PASSWORD=pa55 HOME=/root",
      expected: "DB_PASSWORD=[REDACTED] HOME=/root",
    },
    { probe: "YAML form", input: "api_key: abc123\nname: x", expected: "api_key: [REDACTED]\nname: x" },
    {
      probe: "quoted JSON form in broken JSON",
      input: '{"apiKey": "my key with spaces", "city": "Paris"',
      expected: '{"apiKey": "[REDACTED]", "city": "Paris"',
    },
    {
      probe: "torn quoted value at the end",
      input: '{"city": "Paris", "password": "hunter2 and more',
      expected: '{"city": "Paris", "password": "[REDACTED]',
    },
    { probe: "empty quoted value", input: 'password: ""', expected: 'password: ""' },
    {
      probe: "URL password",
      input: "postgres://admin:pa55word@db.local:5432/app",
      expected: "postgres://admin:[REDACTED]@db.local:5432/app",
    },
    {
      probe: "PEM private key",
      input: "-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----",
      expected: "-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----",
    },
    {
      probe: "plain prose",
      input: "The weather in Paris is sunny.",
      expected: "The weather in Paris is sunny.",
    },
    {
      probe: "token counts",
      input: "max_tokens=100 inputTokens: 12",
      expected: "max_tokens=100 inputTokens: 12",
    },
    {
      probe: "words containing sk-",
      input: "ask-questions-about-the-weather-today",
      expected: "ask-questions-about-the-weather-today",
    },
    {
      probe: "already redacted",
      input: "Bearer [REDACTED] password=[REDACTED]",
      expected: "Bearer [REDACTED] password=[REDACTED]",
    },
  ];

  it.each(cases)("$probe", ({ input, expected }) => {
    expect(redactText(input)).toBe(expected);
  });

  it("is idempotent", () => {
    for (const { input } of cases) expect(redactText(redactText(input))).toBe(redactText(input));
  });

  it("handles long hostile input in one pass with the documented result", () => {
    const words = "a".repeat(200_000);
    const assignments = "token=".repeat(20_000);
    const headers = "-----BEGIN PRIVATE KEY-----".repeat(2_000);
    expect(redactText(`${words} ${assignments} ${headers}`)).toBe(`${words} token=[REDACTED] ${headers}`);
  });
});

describe("isSecretKeyName", () => {
  const secret = [
    "password",
    "Password",
    "passwd",
    "db_password",
    "token",
    "access_token",
    "refresh_token",
    "githubToken",
    "X-Auth-Token",
    "secret",
    "client_secret",
    "clientSecret",
    "apiKey",
    "api_key",
    "API_KEY",
    "APIKey",
    "x-api-key",
    "OPENAI_API_KEY",
    "authorization",
    "Authorization",
    "private_key",
    "privateKey",
    "secretAccessKey",
    "Cookie",
  ];
  const safe = [
    "name",
    "inputTokens",
    "outputTokens",
    "max_tokens",
    "tokenCount",
    "declaredToolCount",
    "sessionKey",
    "toolId",
    "callId",
    "secretary",
    "keyboard",
    "",
  ];
  it.each(secret)("%s is secret", (key) => expect(isSecretKeyName(key)).toBe(true));
  it.each(safe)("%s is not secret", (key) => expect(isSecretKeyName(key)).toBe(false));
});
