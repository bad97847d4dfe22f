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
