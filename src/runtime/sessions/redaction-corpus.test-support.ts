import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The Seal-Tools data set beside the project (`../shared/data/seal-tools/`: 4,076 tools, 700 queries), from the
 * main checkout or from a worktree one level further down.
 */
const SEAL_TOOLS =
  ["../../../../shared/data/seal-tools/", "../../../../../shared/data/seal-tools/"]
    .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
    .find((dir) => existsSync(`${dir}tools.jsonl`)) ?? "";

/** True when the data set is there (the corpus is then the hand-written outputs alone). */
export const sealToolsAvailable = SEAL_TOOLS !== "";

/**
 * Ordinary tool outputs with nothing secret in them, written as tools print them: weather, file listings,
 * search results, logs, code and docs that speak of passwords, tokens, keys and PINs without holding one.
 */
export const ORDINARY_OUTPUTS: readonly string[] = [
  "The weather in Paris is sunny, 21 °C, wind 12 km/h from the north-west.",
  '{"city":"Paris","temperature":21,"unit":"celsius","conditions":"sunny","humidity":0.4}',
  "total 24\ndrwxr-xr-x  4 user staff  128 Dec  1 10:02 .\n-rw-r--r--  1 user staff 1024 Dec  1 10:01 README.md\n-rw-------  1 user staff   88 Dec  1 10:01 .env.example",
  "src/auth/reset-password.ts\nsrc/auth/token-refresh.ts\nsrc/settings/api-keys.tsx\nsrc/pin-code-input.tsx",
  "To reset your password, open Settings > Security and choose Reset password.",
  "Reset your password from the settings page; the link expires after 24 hours.",
  "The password is incorrect. Try again or reset it.",
  "Your API key is invalid or has expired: create a new one in the dashboard.",
  "The token is expired; sign in again to get a new one.",
  "Passwords must be at least 12 characters long and the password is case-sensitive.",
  "Enter the PIN shown on the device. The PIN is required for pairing.",
  "Two-factor authentication: enter the OTP from your authenticator app.",
  "Set the DSN in your Sentry project settings (Settings > Client Keys).",
  "Create an incoming webhook in Slack, then paste its URL into the webhookUrl field.",
  "Store the connection string in an environment variable, never in source control.",
  "Write down your mnemonic and keep it offline; anyone with the seed phrase controls the wallet.",
  "function resetPassword(email: string): Promise<void> { return api.post('/password/reset', { email }); }",
  "const token = await getToken();\nconst apiKey = process.env.OPENAI_API_KEY;\nif (!apiKey) throw new Error('missing key');",
  "def check_password(user, candidate):\n    return bcrypt.checkpw(candidate, user.password_hash)",
  '<input type="password" name="password" autocomplete="current-password">',
  "GET /api/users?page=2&per_page=50 200 OK 12ms",
  "2026-12-01T10:00:00Z INFO request finished status=200 duration_ms=34 path=/v1/responses",
  "inputTokens: 1200, outputTokens: 300, max_tokens=4096, tokenCount: 1500",
  "Pinned 3 messages in #general. Spinning up 2 workers. Shipping ETA: 3 days.",
  "Opinion: the keynote was good. Keyboard shortcuts: Ctrl+K opens search.",
  "Found 3 results: https://docs.example.com/auth/passwords, https://example.com/blog/tokens, https://example.com/pins",
  "git clone https://github.com/example/project.git && cd project && npm install",
  "postgres://db.internal:5432/app (no credentials; uses peer authentication)",
  "See https://hooks.slack.com for the docs of incoming webhooks.",
  "The secret to good bread is time: let the dough rest overnight.",
  "Token bucket: capacity 100, refill rate 10 per second.",
  "The pin is 3 cm long and made of steel.",
  "CVV: the 3-digit code on the back of your card (never share it).",
  '{"passwordPolicy":{"minLength":12,"requireDigits":true},"pinLength":6,"otpDigits":6}',
  '{"tool":"send_email","description":"Sends an email. Never include passwords or API keys in the body."}',
];

function jsonLines(file: string): string[] {
  return readFileSync(`${SEAL_TOOLS}${file}`, "utf8").split("\n").filter(Boolean);
}

/**
 * The ordinary outputs, and when the data set is there: each Seal-Tools tool as a tool listing prints it
 * (its JSON line, with its parameter schemas), each tool description and parameter description as text,
 * and each dev query with the arguments of its calls (JSON).
 */
export function ordinaryCorpus(): string[] {
  const corpus = [...ORDINARY_OUTPUTS];
  if (!sealToolsAvailable) return corpus;
  for (const line of jsonLines("tools.jsonl")) {
    corpus.push(line);
    const tool = JSON.parse(line) as {
      api_description?: string;
      parameters?: Record<string, { description?: string }>;
    };
    if (typeof tool.api_description === "string") corpus.push(tool.api_description);
    for (const parameter of Object.values(tool.parameters ?? {}))
      if (typeof parameter.description === "string") corpus.push(parameter.description);
  }
  corpus.push(...jsonLines("dev.jsonl"));
  return corpus;
}
