import { describe, expect, it } from "vitest";
import { createHttpSessionPool, type PooledSession } from "./http-session-pool.js";

type Fake = PooledSession & { name: string; closed: boolean; running: boolean };

function fake(name: string): Fake {
  const session: Fake = {
    name,
    closed: false,
    running: false,
    busy: () => session.running,
    close: async () => {
      session.closed = true;
    },
  };
  return session;
}

function pool(maxSessions: number, idleMs = 1_000) {
  const clock = { now: 0 };
  const lines: string[] = [];
  const sessions = createHttpSessionPool<Fake>({
    maxSessions,
    idleMs,
    now: () => clock.now,
    log: (line) => lines.push(line),
  });
  const add = (name: string) => {
    const slot = sessions.reserve();
    if (!slot) return undefined;
    const session = fake(name);
    slot.fill(name, session);
    return session;
  };
  return { sessions, clock, lines, add };
}

describe("createHttpSessionPool", () => {
  it("evicts the least recently used session at the cap; a POST makes a session recent, a GET does not", () => {
    const { sessions, add, lines } = pool(3);
    const a = add("a");
    const b = add("b");
    const c = add("c");
    sessions.use("a")?.done();
    sessions.use("b", false)?.done(); // a listening stream: b stays the least recently used
    const d = add("d");
    expect(d).toBeDefined();
    expect([a?.closed, b?.closed, c?.closed]).toEqual([false, true, false]);
    expect(sessions.use("b")).toBeUndefined();
    expect(sessions.size()).toBe(3);
    expect(lines).toEqual([
      "mcp serve: session limit (3) reached: closed the least recently used idle session to admit a new one",
    ]);
  });

  it("skips busy sessions (a call running, or a request being handled) and refuses when all are busy", () => {
    const { sessions, add } = pool(2);
    const a = add("a") as Fake;
    const b = add("b") as Fake;
    a.running = true;
    const handling = sessions.use("b"); // b is being handled: busy until done()
    expect(sessions.reserve()).toBeUndefined();
    expect([a.closed, b.closed]).toEqual([false, false]);
    handling?.done();
    expect(add("c")).toBeDefined();
    expect([a.closed, b.closed]).toEqual([false, true]);
  });

  it("counts sessions still initializing toward the cap, and gives their slot back when none came of it", () => {
    const { sessions, add } = pool(1);
    const slot = sessions.reserve();
    expect(slot).toBeDefined();
    expect(sessions.reserve()).toBeUndefined();
    slot?.release();
    slot?.release(); // twice is once
    expect(add("a")).toBeDefined();
    expect(sessions.size()).toBe(1);
  });

  it("sweeps sessions idle for idleMs, but never a busy one", () => {
    const { sessions, add, clock } = pool(4, 1_000);
    const a = add("a") as Fake;
    const b = add("b") as Fake;
    const c = add("c") as Fake;
    b.running = true;
    clock.now = 600;
    sessions.use("c")?.done();
    clock.now = 1_000;
    sessions.sweep();
    expect([a.closed, b.closed, c.closed]).toEqual([true, false, false]);
    b.running = false;
    clock.now = 1_999;
    sessions.sweep(); // b counted as used at 1,000 while busy; c was used at 600
    expect([b.closed, c.closed]).toEqual([false, true]);
    clock.now = 2_000;
    sessions.sweep();
    expect(b.closed).toBe(true);
    expect(sessions.size()).toBe(0);
  });

  it("closeAll closes every session", async () => {
    const { sessions, add } = pool(3);
    const all = [add("a"), add("b")] as Fake[];
    await sessions.closeAll();
    expect(all.map((session) => session.closed)).toEqual([true, true]);
    expect(sessions.size()).toBe(0);
  });
});
