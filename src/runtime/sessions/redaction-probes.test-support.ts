import { MAX_REDACTION_DEPTH } from "./limits.js";

/** The secrets a run knows in the probes (a provider key, an argument value with quotes and a backslash). */
export const KNOWN_SECRETS: readonly string[] = ["mock-key-123", 'pw-"quoted"\\-1', "hunter2-long"];

const OPENAI_KEY = "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7Yq\nabc=\n-----END RSA PRIVATE KEY-----";

/** Pieces of text every redaction rule reacts to (redaction-gaps.test.ts has the newer rules' table), and many it must leave alone. */
export const TEXT_FRAGMENTS: readonly string[] = [
  "",
  " ",
  "plain words",
  "2026-12-01T23:00:16.174Z",
  "run_befef38f-bf7e-4ad6-982b-7221c4d3e456",
  "native:fake-plugin:fake_plugin_tool_17",
  "FAKE_PLUGIN_OK fake_plugin_tool_17",
  "a monkey with a keyboard",
  "inputTokens: 12, max_tokens=5, tokenCount: 3",
  "ratio: 3:4 = 0.75",
  "password=hunter2",
  "DB_PASSWORD=pa55 HOME=/root",
  "api_key: abc123",
  "a.p.i.k.e.y=zzz9",
  "t-o-k-e-n: qqq",
  "client.secret = s3cr3t",
  "Cookie: sid=abc123",
  "set_credentials=xyz",
  "passphrase: open sesame",
  "authorization=abc",
  "refresh-token: r1",
  "privateKey=k1",
  "AccessKey: a1",
  "my_secrets: s1",
  "passwd=p1",
  "x-Api-KEY=k2",
  "ClientSecret=c1",
  "githubToken: g1",
  "tokens: 5",
  "Secret: x",
  '"apiKey": "my key with spaces"',
  "'passwd': 'p w'",
  'password: ""',
  "token=abc&page=2",
  "https://x.test/cb?access_token=abc123&client_secret=xyz&state=ok",
  "postgres://user:pa55word@db.example:5432/app",
  "ftp://anonymous@host/",
  "Authorization: Bearer abc123",
  "Authorization: Basic dXNlcjpwYXNz",
  "Bearer abc.DEF-123_xyz=",
  "bearer of news",
  `key ${OPENAI_KEY} here`,
  "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
  "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
  "AKIAIOSFODNN7EXAMPLE",
  "AIzaSyA1234567890abcdefghijklmnopqrstuv",
  `jwt=${JWT}`,
  PEM,
  "SK-uppercase-not-a-key-0123456789",
  "k_live_short",
  "\u212Aey=kelvin",
  "pass\u200Bword=zero-width",
  "[REDACTED]",
  "password=[REDACTED]",
  "{ marker: string }",
  "{not json",
  "[1, 2",
  "  [1, 2]  ",
  "\u00a0{}",
  '{"a":1}',
  '{"pass\\u0077ord":"escaped-key"}',
  '{"note":"s\\u006b-abcdefghijklmnopqrstuvwxyz0123"}',
  '{"token":null,"password":"","secret":0}',
  '{"__proto__":{"password":"p"},"a":1}',
  '["tok-en", {"x": "api_key=v"}]',
  "line one\nline two: x",
  'quote " and backslash \\ here',
  "tab\tseparated\tpassword\t=\tx",
  "my password is hunter2",
  "the PIN is 4821.",
  "the password is incorrect",
  "api key is 'Zx9'",
  "Server=db;Pwd=S3cret!;",
  "otp: 123456",
  "CVV: the code",
  "mnemonic: abandon ability",
  "connection_string=Server=x",
  "passwordPolicy: strict",
  "const token = await getToken();",
  "apiKey = process.env.OPENAI_API_KEY",
  "Authorization: Bearer TOKEN",
  "api_key=YOUR_API_KEY",
  "https://hooks.slack.com/services/T0123/B0456/aBcDeF",
  "https://discord.com/api/webhooks/123/AbC-dEf",
  "https://0123456789abcdef0123@o1.ingest.sentry.io/2",
  "redis://:s3cret@cache:6379",
  ...KNOWN_SECRETS,
  ...KNOWN_SECRETS.map((secret) => JSON.stringify(secret).slice(1, -1)),
  ...KNOWN_SECRETS.map((secret) => JSON.stringify(JSON.stringify(secret)).slice(1, -1)),
  KNOWN_SECRETS[0]?.slice(0, 3) ?? "",
];

/** Keys: ordinary ones, secret-like ones, ones that only look secret, and keys JSON or JS treat specially. */
export const KEYS: readonly string[] = [
  "type",
  "text",
  "items",
  "at",
  "arguments",
  "output",
  "result",
  "usage",
  "inputTokens",
  "max_tokens",
  "tokenCount",
  "password",
  "apiKey",
  "x-api-key",
  "access_token",
  "githubToken",
  "Cookie",
  "client_secret",
  "a.p.i.k.e.y",
  "pin",
  "dsn",
  "passwordPolicy",
  "__proto__",
  "toJSON",
  "",
  "0",
];

/** A seeded pseudo-random source (mulberry32): the same probes on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** A text of 1 to 4 fragments, sometimes glued without a space, sometimes a JSON text of a generated value. */
export function generatedText(random: () => number, depth = 0): string {
  if (depth < 3 && random() < 0.15) {
    const json = JSON.stringify(generatedValue(random, depth + 1, { plainOnly: true }));
    if (json !== undefined) return random() < 0.1 ? ` ${json}\n` : json;
  }
  const parts = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, TEXT_FRAGMENTS));
  return parts.join(random() < 0.3 ? "" : pick(random, [" ", ", ", "\n", "&", "="]));
}

/** A value as events hold them; unless `plainOnly`, also values JSON and copies treat specially. */
export function generatedValue(
  random: () => number,
  depth: number,
  options: { plainOnly?: boolean } = {},
): unknown {
  const roll = random();
  if (depth > 4 || roll < 0.35) return generatedText(random, depth);
  if (roll < 0.45) return pick(random, [0, -0, 1.5, 42, true, false, null, undefined, Number.NaN]);
  if (roll < 0.62) {
    const array = Array.from({ length: Math.floor(random() * 4) }, () =>
      generatedValue(random, depth + 1, options),
    );
    return array;
  }
  if (!options.plainOnly && roll < 0.7) return hostileValue(random, depth);
  const record: Record<string, unknown> = {};
  for (let index = Math.floor(random() * 5); index > 0; index -= 1) {
    Object.defineProperty(record, pick(random, KEYS), {
      value: generatedValue(random, depth + 1, options),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
}

/** Values a copy or JSON.stringify see differently from a plain walk. */
function hostileValue(random: () => number, depth: number): unknown {
  switch (Math.floor(random() * 9)) {
    case 0:
      return new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    case 1: {
      const bare = Object.create(null) as Record<string, unknown>;
      bare.text = generatedText(random, depth);
      return bare;
    }
    case 2: {
      // biome-ignore lint/suspicious/noSparseArray: a hole is the probe
      const holes = [generatedText(random, depth), , "after"];
      return holes;
    }
    case 3: {
      const extra: unknown[] & { note?: string } = [generatedText(random, depth)];
      extra.note = generatedText(random, depth);
      return extra;
    }
    case 4: {
      const shown = { text: generatedText(random, depth) };
      return { toJSON: () => shown };
    }
    case 5:
      return {
        get boom(): string {
          throw new Error("no");
        },
        text: generatedText(random, depth),
      };
    case 6: {
      const cycle: Record<string, unknown> = { text: generatedText(random, depth) };
      cycle.self = cycle;
      return cycle;
    }
    case 7:
      return new (class Custom {
        text = generatedText(random, depth);
      })();
    default:
      return new Map([["k", "v"]]);
  }
}

/** Nested `levels` deep: as objects, or as JSON text inside JSON text. */
export function nested(levels: number, leaf: unknown, asText: boolean): unknown {
  let value = leaf;
  for (let index = 0; index < levels; index += 1)
    value = asText ? JSON.stringify({ next: value }) : { next: value };
  return value;
}

/** Events (and event-like values) every rule and bound of the two redactions meets at least once. */
export function hostileEvents(): Array<{ probe: string; event: Record<string, unknown> }> {
  const at = "2026-01-01T00:00:00.000Z";
  const cycle: Record<string, unknown> = { type: "tool-result", at };
  cycle.output = cycle;
  return [
    {
      probe: "nothing to redact",
      event: { type: "user-input", at, items: [{ type: "message", text: "hi" }] },
    },
    {
      probe: "a known secret as free text",
      event: {
        type: "assistant-output",
        at,
        items: [{ type: "message", text: `it is ${KNOWN_SECRETS[0]}` }],
      },
    },
    {
      probe: "a known secret JSON-escaped in a tool output",
      event: { type: "tool-result", at, output: JSON.stringify({ echo: KNOWN_SECRETS[1] }) },
    },
    {
      probe: "a known secret escaped twice",
      event: {
        type: "tool-result",
        at,
        output: JSON.stringify({ text: JSON.stringify({ v: KNOWN_SECRETS[1] }) }),
      },
    },
    {
      probe: "a secret-named argument",
      event: {
        type: "assistant-output",
        at,
        items: [
          { type: "function_call", callId: "c", name: "login", arguments: '{"user":"a","password":"p"}' },
        ],
      },
    },
    {
      probe: "a secret-named key in the event",
      event: { type: "run-summary", at, telemetry: { apiKey: "k" } },
    },
    { probe: "a key-shaped string", event: { type: "tool-result", at, output: `found ${OPENAI_KEY}` } },
    {
      probe: "JSON with an escaped secret key",
      event: { type: "tool-result", at, output: '{"pass\\u0077ord":"x"}' },
    },
    { probe: "a PEM block in a result", event: { type: "target-activity", at, result: PEM, arguments: {} } },
    { probe: "a URL with a password", event: { type: "tool-result", at, output: "postgres://u:pw@db/x" } },
    { probe: "a Date", event: { type: "run-summary", at, telemetry: { when: new Date(0) } } },
    {
      probe: "a null-prototype object",
      event: { type: "run-summary", at, telemetry: Object.assign(Object.create(null), { a: 1 }) },
    },
    // biome-ignore lint/suspicious/noSparseArray: a hole is the probe
    { probe: "an array with a hole", event: { type: "user-input", at, items: [1, , 3] } },
    {
      probe: "a toJSON",
      event: { type: "run-summary", at, telemetry: { toJSON: () => ({ password: "p" }) } },
    },
    { probe: "a cycle", event: cycle },
    {
      probe: "objects at the depth bound",
      event: { type: "run-summary", at, telemetry: nested(MAX_REDACTION_DEPTH, "x", false) },
    },
    {
      probe: "objects just inside the depth bound",
      event: { type: "run-summary", at, telemetry: nested(MAX_REDACTION_DEPTH - 3, KNOWN_SECRETS[0], false) },
    },
    {
      probe: "JSON text nested past the depth bound",
      event: {
        type: "tool-result",
        at,
        output: `${"[".repeat(MAX_REDACTION_DEPTH)}"x"${"]".repeat(MAX_REDACTION_DEPTH)}`,
      },
    },
    {
      probe: "JSON text in JSON text, six levels",
      event: { type: "tool-result", at, output: nested(6, { password: "p", text: KNOWN_SECRETS[1] }, true) },
    },
    {
      probe: "undefined and null values",
      event: { type: "run-summary", at, error: undefined, password: null },
    },
    {
      probe: "a __proto__ key",
      event: JSON.parse(`{"type":"tool-result","at":"${at}","__proto__":{"a":"b"}}`),
    },
  ];
}
