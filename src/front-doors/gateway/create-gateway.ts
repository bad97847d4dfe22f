import {
  createClientAddressReader,
  createHttpGuard,
  createKeyRing,
  DEFAULT_BIND_HOST,
  type GuardRefusal,
  type KeyRing,
} from "../../runtime/http-guard/index.js";
import { createMemoryResponseStore, createMemoryRunQueue } from "../../runtime/state/index.js";
import { withIncomingTrace } from "../../runtime/telemetry/index.js";
import { escapeControlCharacters } from "../../shared/text/index.js";
import { CONSOLE_POSTS, createConsoleRoutes, isConsolePath } from "../console/index.js";
import { registerApprovalRoutes } from "./approval-routes.js";
import { registerRouteAccess } from "./caller-access.js";
import { CHAT_COMPLETIONS_PATH, createChatRoutes } from "./chat/index.js";
import { abortedRequestNote } from "./client-aborted.js";
import { createConsoleBackend } from "./console-backend.js";
import { createDialectApp, noRoute, refuseOtherMethods } from "./dialect-app.js";
import type { GatewayContext } from "./gateway-context.js";
import type { ApiErrorBody } from "./gateway-error.js";
import { HostedToolReporter } from "./hosted-tools.js";
import { createInternalErrorReporter } from "./internal-error.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_QUEUED_PER_SESSION } from "./limits.js";
import {
  COUNT_TOKENS_PATH,
  createMessagesRoutes,
  MESSAGES_PATH,
  unroutedErrorBody,
} from "./messages/index.js";
import { registerReadRoutes } from "./read-routes.js";
import { createResponsesRoutes, RESPONSES_PATH } from "./responses/index.js";
import { AGENT_HEADER, SESSION_HEADER } from "./run-target.js";
import { RunTracker } from "./run-tracker.js";
import { serveApp } from "./serve-app.js";
import type { Gateway, GatewayOptions } from "./types.js";

/** The run routes of the three dialects, each answered by its dialect's app (which also gives their 405s). */
const DIALECT_POSTS: readonly string[] = [
  RESPONSES_PATH,
  CHAT_COMPLETIONS_PATH,
  MESSAGES_PATH,
  COUNT_TOKENS_PATH,
];

/** Every other route with the methods it answers; other methods get 405 with an `Allow` header. */
const ROUTE_METHODS: ReadonlyArray<readonly [path: string, allow: string]> = [
  ["/v1/models", "GET, HEAD"],
  ["/v1/models/:model{.+}", "GET, HEAD"],
  ["/v1/responses/:id", "GET, HEAD"],
  ["/v1/tools/effective", "GET, HEAD"],
  ["/v1/sessions", "GET, HEAD"],
  ["/v1/sessions/:key", "GET, HEAD"],
  ["/healthz", "GET, HEAD"],
];

/** The approval routes, present only when the gateway was given a broker. */
const APPROVAL_ROUTE_METHODS: ReadonlyArray<readonly [path: string, allow: string]> = [
  ["/v1/approvals", "GET, HEAD"],
  ["/v1/approvals/:id", "POST"],
];

/**
 * Builds the toolsift gateway: the OpenAI-compatible run endpoints, the read-only routes, OpenAI-style
 * error objects for every failure (never a stack trace), per-session run serialisation, and a bounded drain.
 * Every request passes the shared browser guard first (`src/runtime/http-guard`: Host, Origin/CORS, bearer token,
 * JSON Content-Type on POST). With `authToken` or `authKeys`, every route but `/healthz` needs a key, and
 * each route its scope (`caller-access.ts`); with `approvals`, the approval routes are served; unless
 * `console: false`, the operator console is served at `/console` (`src/front-doors/console`). An empty
 * `authToken`, a bad key list or a malformed `allowOrigins`, `allowedHosts` or `trustedProxies` entry throws
 * CONFIG_INVALID.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const sink = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Before auth, a stranger chooses the path and headers: every line stays one line, escapes shown.
  const log = (line: string) => sink(escapeControlCharacters(line));
  const reportInternal = createInternalErrorReporter(log);
  const gateway: GatewayContext = {
    runner: options.runner,
    sessions: options.sessions,
    queue: (options.state?.createRunQueue ?? createMemoryRunQueue)({
      maxQueuedPerSession: options.maxQueuedPerSession ?? DEFAULT_MAX_QUEUED_PER_SESSION,
    }),
    tracker: new RunTracker(),
    responses: options.state?.responses ?? createMemoryResponseStore(),
    probeStorage: async () => {
      const state = options.state;
      return state === undefined ? options.sessions.probeWritable?.() : state.probe();
    },
    hostedToolReporter: new HostedToolReporter(log),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    hostedTools: options.hostedTools ?? "omit",
    namespacedKeyIds: new Set(
      (options.authKeys ?? []).filter((key) => !key.scopes.includes("admin")).map((key) => key.id),
    ),
    log,
    reportInternal,
  };
  const routes =
    options.approvals === undefined ? ROUTE_METHODS : [...ROUTE_METHODS, ...APPROVAL_ROUTE_METHODS];
  const consoleOn = options.console !== false;
  const jsonPosts = [
    ...DIALECT_POSTS,
    ...routes.filter(([, allow]) => allow.split(", ").includes("POST")).map(([path]) => path),
    ...(consoleOn ? CONSOLE_POSTS : []),
  ];
  // Built once: the guard is rebuilt at `listen`, and only the ring (token digests) is kept, never the tokens.
  const keyRing =
    options.authToken !== undefined || (options.authKeys?.length ?? 0) > 0
      ? createKeyRing({
          ...(options.authKeys === undefined ? {} : { keys: options.authKeys }),
          ...(options.authToken === undefined ? {} : { token: options.authToken }),
        })
      : undefined;
  // The client of a request: the peer, or behind a trusted proxy the address it forwards (a bad entry throws).
  const clientAddress = createClientAddressReader(options.trustedProxies);
  const guardFor = (bindHost: string) =>
    createGatewayGuard(options, { bindHost, jsonPosts, log, keyRing, consoleOn });
  // The Host check needs the bind address: given, or taken from `listen` (127.0.0.1 until then).
  let guard = guardFor(options.bindHost ?? DEFAULT_BIND_HOST);
  // The gateway's own routes answer OpenAI error objects; each dialect's app renders its own.
  const app = createDialectApp({ reportInternal });

  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    // While draining, keep-alive connections are closed after their response, so a stop is not held open.
    if (!gateway.tracker.accepting) c.header("Connection", "close");
    // A body that never finished arriving is one line, not an error with a stack.
    const aborted = abortedRequestNote(c.error);
    if (aborted !== undefined) log(`${c.req.method} ${c.req.path} ${aborted}`);
    else log(`${c.req.method} ${c.req.path} ${c.res.status} ${Math.round(performance.now() - started)}ms`);
  });
  // After the request log (refusals are logged too), before every route (unknown paths are guarded too):
  // Host, then Origin (and CORS preflights), then the bearer token, then a JSON Content-Type on POST.
  app.use((c, next) => guard(c, next));
  // A request with a W3C `traceparent` header continues that trace (while an OpenTelemetry SDK is registered).
  app.use((c, next) => withIncomingTrace((name) => c.req.header(name), next));

  // Each route's scope (`caller-access.ts`), before the route; the guard identified the caller.
  registerRouteAccess(app, { approvals: options.approvals !== undefined });
  // One app per wire dialect, each with its own error handler.
  app.route(RESPONSES_PATH, createResponsesRoutes(gateway));
  app.route(CHAT_COMPLETIONS_PATH, createChatRoutes(gateway));
  app.route(MESSAGES_PATH, createMessagesRoutes(gateway));
  registerReadRoutes(app, gateway);
  if (options.approvals !== undefined) registerApprovalRoutes(app, options.approvals);
  // The operator console (`src/front-doors/console`): its own pages, signed in with a cookie.
  if (consoleOn) {
    const backend = createConsoleBackend(gateway, {
      keyRing,
      approvals: options.approvals,
      logRing: options.logRing,
      diagnostics: options.diagnostics,
    });
    const sessions = options.state?.consoleSessions;
    app.route(
      "/",
      createConsoleRoutes({ backend, log, clientAddress, ...(sessions === undefined ? {} : { sessions }) }),
    );
  }
  for (const [path, allow] of routes) refuseOtherMethods(app, { path, shown: path, allow });

  app.notFound((c) => c.json(noRoute(c.req.method, c.req.path).body(), 404));

  return {
    app,
    listen: (listenOptions) => {
      if (options.bindHost === undefined) guard = guardFor(listenOptions.host);
      return serveApp(app, {
        ...listenOptions,
        log,
        ...(options.serverLimits === undefined ? {} : { limits: options.serverLimits }),
      });
    },
    drain: (timeoutMs) => gateway.tracker.drain(timeoutMs),
    stats: () => ({ ...gateway.queue.stats(), draining: !gateway.tracker.accepting }),
  };
}

/**
 * Request headers a browser page of a listed origin may send: ours, and what the official `openai` and
 * `@anthropic-ai/sdk` clients send.
 */
const CORS_ALLOW_HEADERS = [
  "authorization",
  "x-api-key",
  "content-type",
  AGENT_HEADER,
  SESSION_HEADER,
  "openai-organization",
  "openai-project",
  "anthropic-version",
  "anthropic-beta",
  "anthropic-dangerous-direct-browser-access",
  // W3C trace context: a traced web app's request continues its trace (OpenTelemetry).
  "traceparent",
  "tracestate",
  "x-stainless-arch",
  "x-stainless-helper-method",
  "x-stainless-lang",
  "x-stainless-os",
  "x-stainless-package-version",
  "x-stainless-retry-count",
  "x-stainless-runtime",
  "x-stainless-runtime-version",
  "x-stainless-timeout",
  "user-agent", // the client sets it; browsers that honour it (Firefox) then preflight it
];

/**
 * The shared Host/Origin/bearer/content-type guard, answering refusals as OpenAI error objects, or in
 * Anthropic's shape on the Messages API.
 */
function createGatewayGuard(
  options: GatewayOptions,
  where: {
    bindHost: string;
    jsonPosts: readonly string[];
    log: (line: string) => void;
    keyRing: KeyRing | undefined;
    consoleOn: boolean;
  },
) {
  const { bindHost, log } = where;
  // Route patterns (`/v1/approvals/:id`) as exact path matchers: a POST to one of them must carry JSON.
  const jsonPosts = where.jsonPosts.map(
    (path) =>
      new RegExp(
        `^${path
          .split("/")
          .map((part) => (part.startsWith(":") ? "[^/]+" : part))
          .join("/")}$`,
        "u",
      ),
  );
  return createHttpGuard({
    hosts: {
      bindHost,
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    },
    ...(options.allowOrigins === undefined ? {} : { allowOrigins: options.allowOrigins }),
    cors: {
      allowMethods: ["GET", "HEAD", "POST", "OPTIONS"],
      allowHeaders: CORS_ALLOW_HEADERS,
      exposeHeaders: [AGENT_HEADER, SESSION_HEADER],
    },
    ...(where.keyRing === undefined ? {} : { keyRing: where.keyRing }),
    openPaths: ["/healthz"],
    // The console's pages sign their callers in themselves (a session cookie) and answer only their own origin.
    ...(where.consoleOn ? { ownPages: isConsolePath } : {}),
    requiresJsonBody: (method, path) => method === "POST" && jsonPosts.some((pattern) => pattern.test(path)),
    render: (refusal: GuardRefusal, path: string) =>
      unroutedErrorBody(path, {
        status: refusal.status,
        message: refusal.message,
        body: () =>
          ({
            error: {
              message: refusal.message,
              type: "invalid_request_error",
              param: null,
              code: refusal.code,
            },
          }) satisfies ApiErrorBody,
      }),
    log,
  });
}
