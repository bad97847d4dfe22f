import { InvalidArgumentError } from "commander";

/** Highest TCP port. */
const MAX_PORT = 65_535;
/** Signals that stop a long-running command gracefully; a second one stops it at once (Node's default). */
const SHUTDOWN_SIGNALS = ["SIGTERM", "SIGINT"] as const;
/**
 * How often a server checks that its parent process is still there. `npx toolsift gateway` and npm scripts
 * run the bin under npm (through `sh -c`), and a SIGTERM to npm stops npm without passing it on: the server
 * then sees its parent change (it is re-parented) and stops as if it had the signal.
 */
const PARENT_CHECK_INTERVAL_MS = 500;
/** What the shutdown promise resolves with when the parent went away. */
export const PARENT_EXITED = "SIGTERM (the parent process exited)";

/**
 * The first SIGTERM or SIGINT, or the parent process going away (PARENT_EXITED: npm and npx do not pass a
 * SIGTERM on); disposing removes the listeners, so a second signal gets Node's default.
 */
export function waitForSignal(): { signal: Promise<string>; dispose(): void } {
  let dispose = (): void => undefined;
  const signal = new Promise<string>((resolve) => {
    const onSignal = (name: string): void => {
      dispose();
      resolve(name);
    };
    for (const name of SHUTDOWN_SIGNALS) process.on(name, onSignal);
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) onSignal(PARENT_EXITED);
    }, PARENT_CHECK_INTERVAL_MS);
    watch.unref();
    dispose = () => {
      clearInterval(watch);
      for (const name of SHUTDOWN_SIGNALS) process.off(name, onSignal);
    };
  });
  return { signal, dispose: () => dispose() };
}

/** Parses `--port`: an integer from 0 to 65535 (0 picks a free port). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^[0-9]+$/u.test(value.trim()) || !Number.isSafeInteger(port) || port > MAX_PORT) {
    throw new InvalidArgumentError(`port must be an integer from 0 to ${MAX_PORT} (0 picks a free port).`);
  }
  return port;
}

/** Parses `--bind`: a non-blank address without whitespace. */
export function parseBind(value: string): string {
  const address = value.trim();
  if (address.length === 0 || /\s/u.test(address)) {
    throw new InvalidArgumentError("bind must be an address such as 127.0.0.1 or ::1.");
  }
  return address;
}
