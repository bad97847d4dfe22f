import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** Where Debian keeps PostgreSQL's server binaries: `/usr/lib/postgresql/<major>/bin`, the newest major. */
function postgresBinDir(): string {
  const fromEnv = process.env.TOOLSIFT_PG_BIN;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/u.test(name) && existsSync(join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const major = majors[0];
  if (major === undefined) {
    throw new Error(
      "PostgreSQL's server binaries were not found under /usr/lib/postgresql/<major>/bin: install them " +
        "(apt-get install postgresql) or set TOOLSIFT_PG_BIN to the folder holding initdb and pg_ctl.",
    );
  }
  return join(root, major, "bin");
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway PostgreSQL server for tests, on 127.0.0.1 and a socket in its own temp folder. */
export interface PostgresCluster {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`. */
  readonly adminUrl: string;
  readonly port: number;
  /** Creates an empty database with a fresh name and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut), keeping its data. */
  stopServer(): Promise<void>;
  /** Starts the server again on the same port and data. */
  startServer(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/** Options of startPostgresCluster. */
export interface PostgresClusterOptions {
  /**
   * Keep PostgreSQL's default durability (fsync, synchronous commit, full page writes) instead of turning it
   * off for speed. Benchmarks use it to show what a real server pays per commit; tests leave it off.
   */
  durable?: boolean;
}

/**
 * Starts a throwaway cluster: `initdb` into a temp folder (trust auth; no fsync unless `durable`), then
 * `pg_ctl start` on 127.0.0.1 at a free port. As root, the PostgreSQL tools run as the `postgres` user
 * (`runuser`), since PostgreSQL refuses to run as root.
 */
export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const folder = await mkdtemp(join(tmpdir(), "toolsift-pg-"));
  const data = join(folder, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    chownSync(folder, Number(stdout.trim()), Number(group.trim()));
    chmodSync(folder, 0o700);
  }
  const tool = (name: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(bin, name), ...args], { cwd: folder })
      : run(join(bin, name), args, { cwd: folder });
  await tool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const fast = options.durable
    ? []
    : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"];
  const serverOptions = [
    "-c listen_addresses=127.0.0.1",
    `-c port=${port}`,
    `-c unix_socket_directories=${folder}`,
    ...fast,
    "-c max_connections=300",
  ].join(" ");
  const start = () =>
    tool("pg_ctl", [
      "-D",
      data,
      "-l",
      join(folder, "server.log"),
      "-o",
      serverOptions,
      "-w",
      "-t",
      "30",
      "start",
    ]);
  const stop = () => tool("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  await start();
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let serial = 0;
  let running = true;
  return {
    adminUrl,
    port,
    async createDatabase(prefix = "t") {
      serial += 1;
      const name = `${prefix.replace(/[^a-z0-9_]/gu, "_")}_${process.pid}_${serial}_${Date.now().toString(36)}`;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgresql://postgres@127.0.0.1:${port}/${name}`;
    },
    async stopServer() {
      if (!running) return;
      await stop();
      running = false;
    },
    async startServer() {
      if (running) return;
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop().catch(() => undefined);
      running = false;
      await rm(folder, { recursive: true, force: true });
    },
  };
}
