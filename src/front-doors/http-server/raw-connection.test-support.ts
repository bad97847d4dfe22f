import { type IncomingMessage, request } from "node:http";
import { connect, type Socket } from "node:net";

/** A raw TCP connection to a server under test, and what it received once the server closed it. */
export type RawConnection = {
  socket: Socket;
  /** Resolves once connected. */
  connected: Promise<void>;
  /** Everything the server sent, once the connection closed. */
  closed: Promise<string>;
};

/**
 * Opens a raw connection to 127.0.0.1:`port` and writes `text` (nothing when empty): for requests a `fetch`
 * cannot send (half-sent headers or bodies, silent sockets). Each socket is added to `sockets`, for the test
 * to destroy when it ends.
 */
export function openRawConnection(port: number, text: string, sockets: Socket[]): RawConnection {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", () => {});
  if (text.length > 0) socket.write(text);
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  return { socket, connected, closed };
}

/** What `sendExact` got back. */
export type ExactAnswer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

/**
 * One HTTP request with exactly these headers (a `host` header replaces the real one), to `url`'s host and
 * `path` (`url`'s own path when absent); the method is POST unless named. For requests `fetch` rewrites.
 */
export function sendExact(
  url: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<ExactAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? "POST",
        headers: options.headers ?? {},
      },
      (response) => {
        readAnswer(response).then(resolve, reject);
      },
    );
    sent.on("error", reject);
    sent.end(options.body);
  });
}

/** The status, headers and whole text body of a node:http response. */
export function readAnswer(response: IncomingMessage): Promise<ExactAnswer> {
  return new Promise((resolve, reject) => {
    let body = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      body += chunk;
    });
    response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    response.on("error", reject);
  });
}

/**
 * Writes `bytes` to a fresh connection to 127.0.0.1:`port` and resolves, once the server closes it, with what
 * came back read as latin1 (every byte one character): for request lines and headers `fetch` would refuse.
 */
export function sendRawBytes(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(received));
    socket.write(bytes);
  });
}
