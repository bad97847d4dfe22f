/**
 * A child process for the run queue's crash test: opens its own gateway on the database at argv[2], claims
 * session argv[3] with a run that never ends, prints `claimed`, and waits to be killed.
 */
import { startGatewayPresence } from "./gateway-presence.js";
import { openPostgresPool } from "./open-postgres-pool.js";
import { startPostgresListener } from "./postgres-listener.js";
import { createPostgresRunQueue } from "./postgres-run-queue.js";

const [url, sessionId] = process.argv.slice(2);
if (url === undefined || sessionId === undefined)
  throw new Error("usage: run-queue-holder <url> <session id>");
const db = openPostgresPool(url, { max: 2 });
const listener = startPostgresListener(url);
await listener.whenListening();
const presence = await startGatewayPresence(db);
// The heartbeat timer is unref'd: this interval keeps the process alive until it is killed.
setInterval(() => undefined, 60_000);
const queue = createPostgresRunQueue(db, listener, presence, { maxQueuedPerSession: 4 });
void queue.run(sessionId, () => {
  process.stdout.write("claimed\n");
  return new Promise<never>(() => undefined);
});
