import type { CellChild } from "./cell-child.js";
import type { ChildLaunch } from "./child-launch.js";

const CLOSED = { code: "CLOSED", message: "Code Mode was closed." };

/**
 * A warm pool of pre-started children. Each child runs one cell and is then thrown away; the caller calls
 * `fill` when its cell has ended, so the replacement's start (a synchronous spawn in the parent) never delays
 * a running cell, and the next cell usually finds a child that has already loaded QuickJS. Children that
 * died while idle are skipped. A child that cannot start makes `acquire` reject with the reason.
 */
export class CellPool {
  readonly #launch: () => Promise<ChildLaunch>;
  readonly #size: number;
  #idle: Promise<CellChild>[] = [];
  #closed = false;

  constructor(launch: () => Promise<ChildLaunch>, size: number) {
    this.#launch = launch;
    this.#size = size;
  }

  /** Starts children until the pool holds its size. Start failures surface at the next `acquire`. */
  fill(): void {
    while (!this.#closed && this.#idle.length < this.#size) this.#idle.push(this.#start());
  }

  /** A child that is ready for one cell. Rejects with an Error saying why no child could be started. */
  async acquire(): Promise<CellChild> {
    if (this.#closed) throw new Error("Code Mode was closed.");
    let child: CellChild | undefined;
    while (!child) {
      const next = this.#idle.shift();
      if (!next) {
        child = await this.#start();
        break;
      }
      const candidate = await next.catch(() => undefined);
      if (candidate?.usable) child = candidate;
    }
    // A child that cannot start is not replaced here: the next acquire starts a fresh one.
    child.claim();
    await child.ready;
    if (this.#closed || !child.usable) {
      child.stop(CLOSED);
      throw new Error(
        this.#closed ? "Code Mode was closed." : "The Code Mode sandbox child ended before use.",
      );
    }
    return child;
  }

  /** Kills every idle child; later `acquire` calls reject. */
  close(): void {
    this.#closed = true;
    for (const pending of this.#idle) {
      pending.then(
        (child) => child.stop(CLOSED),
        () => {},
      );
    }
    this.#idle = [];
  }

  #start(): Promise<CellChild> {
    // The child's module (and zod, which checks its messages) loads with the first cell, not with the library.
    const pending = this.#launch().then(
      async (launch) => new (await import("./cell-child.js")).CellChild(launch),
    );
    pending.catch(() => {});
    return pending;
  }
}
