import type { Server } from "node:http";
import { isIP } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { ToolsiftError } from "../../shared/errors/index.js";
import { createMockApp } from "./create-mock-app.js";
import { MAX_PIECE_DELAY_MS } from "./limits.js";
import { createRequestLog } from "./request-log.js";
import type { MockOpenAI, MockOpenAIOptions } from "./types.js";

/** Host the mock binds when none is given: loopback only. */
const DEFAULT_MOCK_HOST = "127.0.0.1";

/** Port `toolsift mock-openai` listens on without `--port` (the gateway's default port plus one). */
export const DEFAULT_MOCK_CLI_PORT = 18_790;

/** Environment variable that sets the mock's piece delay when `pieceDelayMs` is not given (default 0). */
export const PIECE_DELAY_ENV = "TOOLSIFT_MOCK_PIECE_DELAY_MS";

const MAX_PORT = 65_535;

/**
 * Starts the mock OpenAI provider (a deterministic scripted model, see DESIGN.md) on `host` (default
 * 127.0.0.1) and `port` (default 0: a free port). Resolves once it listens; rejects with a clear
 * ToolsiftError when the port is taken or the options are wrong.
 */
export async function startMockOpenAI(options: MockOpenAIOptions = {}): Promise<MockOpenAI> {
  const port = options.port ?? 0;
  const host = options.host ?? DEFAULT_MOCK_HOST;
  if (!Number.isSafeInteger(port) || port < 0 || port > MAX_PORT)
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `port must be a whole number from 0 to ${MAX_PORT}; got ${port}.`,
    );
  if (host.trim().length === 0) throw new ToolsiftError("INVALID_REQUEST", "host must not be blank.");
  const pieceDelayMs = options.pieceDelayMs ?? pieceDelayFromEnv();
  if (!Number.isFinite(pieceDelayMs) || pieceDelayMs < 0 || pieceDelayMs > MAX_PIECE_DELAY_MS)
    throw new ToolsiftError(
      "INVALID_REQUEST",
      `pieceDelayMs (or ${PIECE_DELAY_ENV}) must be a number of ms from 0 to ${MAX_PIECE_DELAY_MS}; got ${options.pieceDelayMs ?? JSON.stringify(process.env[PIECE_DELAY_ENV])}.`,
    );

  const log = createRequestLog();
  const app = createMockApp(log, { pieceDelayMs });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const bound = await listen(server, port, host);
  const baseUrl = `http://${urlHost(host)}:${bound}/v1`;
  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    port: bound,
    requests: () => log.after(0),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** `TOOLSIFT_MOCK_PIECE_DELAY_MS` as a number; unset or empty is 0, anything else not a number is NaN. */
function pieceDelayFromEnv(): number {
  const text = process.env[PIECE_DELAY_ENV]?.trim() ?? "";
  return text === "" ? 0 : Number(text);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EADDRINUSE"
          ? `port ${port} on ${host} is already in use. Pick another port, or 0 for a free one.`
          : error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND"
            ? `${host} is not an address of this machine. Use 127.0.0.1 (the default).`
            : `${error.code ?? error.message}.`;
      reject(new ToolsiftError("INVALID_REQUEST", `The mock OpenAI provider could not listen: ${reason}`));
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : port);
    });
  });
}

/** The host as it goes in a URL a client can connect to: wildcards become loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return isIP(host) === 6 ? `[${host}]` : host;
}
