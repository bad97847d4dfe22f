import { describe, expect, it } from "vitest";
import { isToolsiftError } from "../../shared/errors/index.js";
import { createHostCheck, describeAllowedHostProblem, type HostRule } from "./check-host.js";
import { createOriginCheck } from "./check-origin.js";
import { checkJsonContentType } from "./create-http-guard.js";
import { createKeyRing } from "./create-key-ring.js";
import { describeOriginProblem } from "./normalise-origin.js";

describe("Content-Type of a POST body", () => {
  it.each([
    ["application/json", "allowed"],
    ["application/json; charset=utf-8", "allowed"],
    ["APPLICATION/JSON", "allowed"],
    ["Application/Json;Charset=UTF-8", "allowed"],
    ["  application/json  ", "allowed"],
    ["application/vnd.api+json", "allowed"],
    ["application/merge-patch+json; charset=utf-8", "allowed"],
    ["text/plain", "415"],
    ["text/plain; charset=utf-8", "415"],
    ["application/x-www-form-urlencoded", "415"],
    ["multipart/form-data; boundary=----x", "415"],
    [undefined, "415"],
    ["", "415"],
    ["json", "415"],
    ["application/jsonp", "415"],
    ["application/json5", "415"],
    ["text/json", "415"],
    ["application/+json", "415"],
    ["text/plain; x=application/json", "415"],
  ])("%j → %s", (contentType, outcome) => {
    const verdict = checkJsonContentType(contentType);
    if (outcome === "allowed") {
      expect(verdict).toBeUndefined();
      return;
    }
    expect(verdict).toMatchObject({ status: 415, code: "unsupported_media_type" });
    expect(verdict?.message).toContain("send Content-Type: application/json");
  });

  it("quotes a hostile content type escaped and cut", () => {
    const message = checkJsonContentType(`text/plain\n${"x".repeat(5000)}`)?.message ?? "";
    expect(message).not.toContain("\n");
    expect(message.length).toBeLessThan(300);
  });
});

const LISTED = ["http://localhost:5173", "HTTPS://App.Example.COM", "http://127.0.0.1:80"];

describe("Origin of a request (listed: localhost:5173, https://app.example.com, http://127.0.0.1)", () => {
  it.each([
    [undefined, "none"],
    ["http://localhost:5173", "http://localhost:5173"],
    ["HTTP://LOCALHOST:5173", "http://localhost:5173"],
    ["https://app.example.com", "https://app.example.com"],
    ["https://APP.example.com", "https://app.example.com"],
    ["https://app.example.com:443", "https://app.example.com"],
    ["http://127.0.0.1", "http://127.0.0.1"],
    ["http://127.0.0.1:80", "http://127.0.0.1"],
    ["http://localhost:5174", "403"],
    ["https://localhost:5173", "403"],
    ["http://app.example.com", "403"],
    ["https://app.example.com.evil.example", "403"],
    ["https://evil.example", "403"],
    ["http://127.0.0.1:8080", "403"],
    ["null", "403"],
    ["NULL", "403"],
    ["", "403"],
    ["http://localhost:5173/", "403"],
    ["http://localhost:5173/path", "403"],
    ["http://user@localhost:5173", "403"],
    ["file://", "403"],
    ["chrome-extension://abcdef", "403"],
    ["not an origin", "403"],
  ])("%j → %s", (origin, outcome) => {
    const verdict = createOriginCheck(LISTED)(origin);
    if (outcome === "none") expect(verdict).toEqual({ kind: "none" });
    else if (outcome === "403") expect(verdict).toMatchObject({ status: 403, code: "forbidden_origin" });
    else expect(verdict).toEqual({ kind: "allowed", origin: outcome });
  });

  it("refuses every origin when none is listed, and `null` only passes when listed", () => {
    expect(createOriginCheck()("http://localhost:3000")).toMatchObject({ status: 403 });
    expect(createOriginCheck([])("null")).toMatchObject({ status: 403 });
    expect(createOriginCheck(["null"])("null")).toEqual({ kind: "allowed", origin: "null" });
  });

  it("names the key and the fix in the refusal", () => {
    const verdict = createOriginCheck()("https://evil.example");
    expect(verdict).toMatchObject({ message: expect.stringContaining("gateway.cors.allowOrigins") });
    expect(JSON.stringify(verdict)).toContain('\\"https://evil.example\\"');
  });
});

describe("gateway.cors.allowOrigins entries", () => {
  it.each([
    ["http://localhost:3000", undefined],
    ["https://app.example.com", undefined],
    ["HTTP://LOCALHOST", undefined],
    ["http://[::1]:3000", undefined],
    ["null", undefined],
    ["http://localhost:3000/", 'remove "/"'],
    ["http://app.example/ui", 'remove "/ui"'],
    ["http://app.example?x=1", 'remove "?x=1"'],
    ["http://app.example#top", 'remove "#top"'],
    ["ftp://app.example", "expected an http:// or https:// origin, not ftp://"],
    ["file:///home/me", "expected an http:// or https:// origin, not file://"],
    ["localhost:3000", "expected an origin such as"],
    ["app.example", "expected an origin such as"],
    ["http://", "expected a host"],
    ["http://user:pw@app.example", "remove the user name"],
    ["*", "expected an origin such as"],
  ])("%j → %s", (entry, problem) => {
    if (problem === undefined) expect(describeOriginProblem(entry)).toBeUndefined();
    else expect(describeOriginProblem(entry)).toContain(problem);
  });

  it("a malformed entry refuses to build the check, naming the key and index", () => {
    let thrown: unknown;
    try {
      createOriginCheck(["http://ok.example", "ok.example"]);
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toContain('gateway.cors.allowOrigins[1] "ok.example"');
  });
});

const LOOPBACK: HostRule = { bindHost: "127.0.0.1" };
const LAN: HostRule = { bindHost: "192.168.1.20" };
const LAN_NAMED: HostRule = { bindHost: "192.168.1.20", allowedHosts: ["toolsift.internal", "fd00::20"] };
const WILDCARD: HostRule = { bindHost: "0.0.0.0", interfaceAddresses: ["127.0.0.1", "10.1.2.3", "::1"] };
const IPV6_LOOPBACK: HostRule = { bindHost: "::1" };

describe("Host of a request (DNS rebinding guard)", () => {
  it.each([
    ["loopback bind", LOOPBACK, "localhost", "allowed"],
    ["loopback bind", LOOPBACK, "localhost:1234", "allowed"],
    ["loopback bind", LOOPBACK, "LOCALHOST:1234", "allowed"],
    ["loopback bind", LOOPBACK, "127.0.0.1", "allowed"],
    ["loopback bind", LOOPBACK, "127.0.0.1:18789", "allowed"],
    ["loopback bind", LOOPBACK, "[::1]:18789", "allowed"],
    ["loopback bind", LOOPBACK, "[::1]", "allowed"],
    ["loopback bind", LOOPBACK, "[0:0:0:0:0:0:0:1]:80", "allowed"],
    ["loopback bind", LOOPBACK, "evil.example", "403"],
    ["loopback bind", LOOPBACK, "evil.example:18789", "403"],
    ["loopback bind", LOOPBACK, "127.0.0.1.evil.example", "403"],
    ["loopback bind", LOOPBACK, "localhost.evil.example:18789", "403"],
    ["loopback bind", LOOPBACK, "sub.localhost", "403"],
    ["loopback bind", LOOPBACK, "localhost.", "403"],
    ["loopback bind", LOOPBACK, "evil.example@127.0.0.1", "403"],
    ["loopback bind", LOOPBACK, "127.0.0.1/evil", "403"],
    ["loopback bind", LOOPBACK, "127.0.0.1:", "403"],
    ["loopback bind", LOOPBACK, "127.0.0.1:abc", "403"],
    ["loopback bind", LOOPBACK, "127.0.0.1 evil", "403"],
    ["loopback bind", LOOPBACK, "192.168.1.20", "403"],
    ["loopback bind", LOOPBACK, "", "403"],
    ["loopback bind", LOOPBACK, undefined, "403"],
    ["::1 bind", IPV6_LOOPBACK, "[::1]:9000", "allowed"],
    ["::1 bind", IPV6_LOOPBACK, "localhost:9000", "allowed"],
    ["::1 bind", IPV6_LOOPBACK, "evil.example", "403"],
    ["LAN bind", LAN, "192.168.1.20", "allowed"],
    ["LAN bind", LAN, "192.168.1.20:18789", "allowed"],
    ["LAN bind", LAN, "localhost:18789", "403"],
    ["LAN bind", LAN, "127.0.0.1:18789", "403"],
    ["LAN bind", LAN, "toolsift.internal", "403"],
    ["LAN bind", LAN, "192.168.1.21", "403"],
    ["LAN bind", LAN, "evil.example", "403"],
    ["LAN bind", LAN, undefined, "403"],
    ["LAN bind + allowedHosts", LAN_NAMED, "toolsift.internal", "allowed"],
    ["LAN bind + allowedHosts", LAN_NAMED, "TOOLSIFT.INTERNAL:8443", "allowed"],
    ["LAN bind + allowedHosts", LAN_NAMED, "[fd00::20]:18789", "allowed"],
    ["LAN bind + allowedHosts", LAN_NAMED, "192.168.1.20:18789", "allowed"],
    ["LAN bind + allowedHosts", LAN_NAMED, "toolsift.internal.evil.example", "403"],
    ["LAN bind + allowedHosts", LAN_NAMED, "x.toolsift.internal", "403"],
    ["wildcard bind", WILDCARD, "localhost:18789", "allowed"],
    ["wildcard bind", WILDCARD, "127.0.0.1:18789", "allowed"],
    ["wildcard bind", WILDCARD, "[::1]:18789", "allowed"],
    ["wildcard bind", WILDCARD, "10.1.2.3:18789", "allowed"],
    ["wildcard bind", WILDCARD, "10.1.2.4:18789", "403"],
    ["wildcard bind", WILDCARD, "evil.example", "403"],
  ])("%s, Host %j → %s", (_bind, rule, host, outcome) => {
    const verdict = createHostCheck(rule)(host);
    if (outcome === "allowed") expect(verdict).toBeUndefined();
    else expect(verdict).toMatchObject({ status: 403, code: "forbidden_host" });
  });

  it("says what the server answers to and which key to set", () => {
    const message = createHostCheck(LOOPBACK)("evil.example:18789")?.message ?? "";
    expect(message).toContain('Host "evil.example:18789" is refused');
    expect(message).toContain("127.0.0.1, localhost, [::1]");
    expect(message).toContain("gateway.allowedHosts");
    expect(createHostCheck(LOOPBACK)(undefined)?.message).toContain("without a Host header");
  });

  it.each([
    ["toolsift.internal", undefined],
    ["192.168.1.20", undefined],
    ["fd00::20", undefined],
    ["[fd00::20]", undefined],
    ["http://toolsift.internal", "leave out the scheme"],
    ["toolsift.internal/ui", "leave out the path"],
    ["toolsift.internal:8080", "leave out the port"],
    ["toolsift internal", "expected a host name or IP address"],
    ["*.example", "expected a host name or IP address"],
  ])("gateway.allowedHosts entry %j → %s", (entry, problem) => {
    if (problem === undefined) expect(describeAllowedHostProblem(entry)).toBeUndefined();
    else expect(describeAllowedHostProblem(entry)).toContain(problem);
  });

  it("a malformed allowedHosts entry refuses to build the check", () => {
    expect(() => createHostCheck({ bindHost: "127.0.0.1", allowedHosts: ["x:1"] })).toThrow(
      'gateway.allowedHosts[0] "x:1": leave out the port',
    );
  });
});

const TOKEN = "tsk-0123456789abcdef";

/** The legacy token's verdict: the admin key when `outcome` is "allowed", else the 401 that asks for a bearer. */
function expectLegacyVerdict(verdict: unknown, outcome: number | string): void {
  if (outcome === "allowed") {
    expect(verdict).toMatchObject({ keyId: "admin", scopes: ["admin"] });
    return;
  }
  expect(verdict).toEqual({
    status: 401,
    code: "invalid_api_key",
    message: "Missing or invalid bearer token.",
    headers: { "WWW-Authenticate": "Bearer" },
  });
}

describe("Authorization: Bearer", () => {
  it.each([
    [undefined, 401],
    ["", 401],
    [`Bearer ${TOKEN}`, "allowed"],
    [`bearer ${TOKEN}`, "allowed"],
    [`BEARER  ${TOKEN} `, "allowed"],
    [`Bearer ${TOKEN.toUpperCase()}`, 401],
    [`Bearer ${TOKEN}x`, 401],
    [`Bearer ${TOKEN.slice(0, -1)}`, 401],
    [`Basic ${TOKEN}`, 401],
    [TOKEN, 401],
    ["Bearer ", 401],
    [`Bearer ${TOKEN} ${TOKEN}`, 401],
  ])("%j → %s", (authorization, outcome) => {
    const verdict = createKeyRing({ token: TOKEN })(authorization);
    expectLegacyVerdict(verdict, outcome);
  });

  it("refuses an empty token instead of running open", () => {
    expect(() => createKeyRing({ token: "" })).toThrow("gateway.auth.token is empty");
  });
});

describe("x-api-key (Anthropic's clients), alone and beside Authorization", () => {
  const bearer = `Bearer ${TOKEN}`;
  it.each([
    ["key alone", undefined, TOKEN, "allowed"],
    ["key and bearer, both right", bearer, TOKEN, "allowed"],
    ["empty key", undefined, "", 401],
    ["wrong key", undefined, `${TOKEN}x`, 401],
    ["key with a Bearer prefix", undefined, bearer, 401],
    ["key of other case", undefined, TOKEN.toUpperCase(), 401],
    ["right key beside a wrong bearer", "Bearer wrong", TOKEN, 401],
    ["right key beside another scheme", `Basic ${TOKEN}`, TOKEN, 401],
    ["right bearer beside a wrong key", bearer, "wrong", 401],
    ["right bearer beside an empty key", bearer, "", 401],
    ["neither", undefined, undefined, 401],
  ] as const)("%s → %s", (_name, authorization, apiKey, outcome) => {
    const verdict = createKeyRing({ token: TOKEN })(authorization, apiKey);
    expectLegacyVerdict(verdict, outcome);
  });
});

describe("createKeyRing: which key a request presents", () => {
  const keys = [
    { id: "alice", token: "tsk-alice-token", scopes: ["runs", "sessions:read"] },
    { id: "bob", token: "tsk-bob-token", scopes: ["approvals"], agents: ["helper"] },
  ];
  const ring = createKeyRing({ keys, token: TOKEN });
  it.each([
    ["alice's bearer", "Bearer tsk-alice-token", undefined, "alice"],
    ["bob's x-api-key", undefined, "tsk-bob-token", "bob"],
    ["the legacy token", `Bearer ${TOKEN}`, undefined, "admin"],
    ["alice's bearer and alice's x-api-key", "Bearer tsk-alice-token", "tsk-alice-token", "alice"],
    ["alice's bearer beside bob's x-api-key (two keys)", "Bearer tsk-alice-token", "tsk-bob-token", 401],
    ["a prefix of alice's token", "Bearer tsk-alice-toke", undefined, 401],
    ["alice's token with a suffix", "Bearer tsk-alice-tokenx", undefined, 401],
    ["no credential", undefined, undefined, 401],
  ] as const)("%s → %s", (_name, authorization, apiKey, outcome) => {
    const verdict = ring(authorization, apiKey);
    if (typeof outcome === "string") expect(verdict).toMatchObject({ keyId: outcome, trusted: false });
    else expect(verdict).toMatchObject({ status: 401, code: "invalid_api_key" });
  });

  it("callerFor answers the caller a key id names, as configured, and nothing for an unknown id", () => {
    expect(ring.callerFor("bob")).toEqual(ring(undefined, "tsk-bob-token"));
    expect(ring.callerFor("admin")).toMatchObject({ keyId: "admin", scopes: ["admin"], trusted: false });
    expect(ring.callerFor("carol")).toBeUndefined();
    expect(ring.callerFor("local")).toBeUndefined();
    expect(ring.callerFor("tsk-alice-token")).toBeUndefined();
    const fewer = createKeyRing({ keys: [{ ...keys[0], scopes: ["runs"] }] as typeof keys });
    expect(fewer.callerFor("alice")?.scopes).toEqual(["runs"]);
    expect(fewer.callerFor("bob")).toBeUndefined();
  });

  it("keeps scopes and agents on the caller, and never the token", () => {
    const bob = ring(undefined, "tsk-bob-token");
    expect(bob).toEqual({ keyId: "bob", scopes: ["approvals"], agents: ["helper"], trusted: false });
    expect(JSON.stringify(ring("Bearer tsk-alice-token"))).not.toContain("tsk-alice-token");
  });

  it.each([
    [
      "a bad id",
      [{ id: "al.ice", token: "t", scopes: ["runs"] }],
      "gateway.auth.keys[0].id must be 1 to 32 letters",
    ],
    [
      "a duplicate id",
      [
        { id: "a", token: "t1", scopes: ["runs"] },
        { id: "a", token: "t2", scopes: ["runs"] },
      ],
      'gateway.auth.keys[1].id "a" is already used by gateway.auth.keys[0]',
    ],
    [
      "the id admin beside the legacy token",
      [{ id: "admin", token: "t1", scopes: ["runs"] }],
      "is already used by gateway.auth.token",
    ],
    [
      "a missing token (an unset env variable)",
      [{ id: "a", scopes: ["runs"] }],
      'gateway.auth.keys[0].token (key "a") is missing or empty',
    ],
    [
      "the same token twice",
      [
        { id: "a", token: "t1", scopes: ["runs"] },
        { id: "b", token: "t1", scopes: ["runs"] },
      ],
      "is the same as gateway.auth.keys[0]'s",
    ],
    [
      "the legacy token reused",
      [{ id: "a", token: TOKEN, scopes: ["runs"] }],
      "is the same as gateway.auth.token's",
    ],
    ["no scopes", [{ id: "a", token: "t1", scopes: [] }], "must be a non-empty list of"],
    [
      "an unknown scope",
      [{ id: "a", token: "t1", scopes: ["root"] }],
      'gateway.auth.keys[0].scopes[0] (key "a") is "root"',
    ],
    [
      "agents not a list",
      [{ id: "a", token: "t1", scopes: ["runs"], agents: "main" }],
      "must be a list of agent ids",
    ],
  ])("refuses %s with CONFIG_INVALID naming the entry", (_name, badKeys, message) => {
    let thrown: unknown;
    try {
      createKeyRing({ keys: badKeys as never, token: TOKEN });
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && thrown.code === "CONFIG_INVALID").toBe(true);
    expect((thrown as Error).message).toContain(message);
    expect((thrown as Error).message).not.toContain("t1");
  });
});
