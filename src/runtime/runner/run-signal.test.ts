import { getEventListeners } from "node:events";
import { afterEach, expect, test, vi } from "vitest";
import { isToolsiftError, ToolsiftError } from "../../shared/errors/index.js";
import { createRunSignal } from "./run-signal.js";

afterEach(() => {
  vi.useRealTimers();
});

test("a source's abort reaches the run signal with the source's reason, or the reason given for it", () => {
  const caller = new AbortController();
  const drain = new AbortController();
  const why = new ToolsiftError("CANCELLED", "the client left");
  const run = createRunSignal({ sources: [{ signal: caller.signal, reason: why }, drain.signal, undefined] });
  expect(run.signal.aborted).toBe(false);
  caller.abort("socket closed");
  expect(run.signal.aborted).toBe(true);
  expect(run.signal.reason).toBe(why);
  expect(run.timedOut).toBe(false);

  const other = createRunSignal({ sources: [caller.signal, drain.signal] });
  expect(other.signal.reason).toBe("socket closed");
  const drained = createRunSignal({ sources: [drain.signal] });
  drain.abort("stopping");
  expect(drained.signal.reason).toBe("stopping");
});

test("a source already aborted aborts the run signal at once and attaches nothing", () => {
  const caller = new AbortController();
  caller.abort("gone");
  const drain = new AbortController();
  const run = createRunSignal({ sources: [drain.signal, caller.signal], timeoutMs: 1_000 });
  expect(run.signal.aborted).toBe(true);
  expect(run.signal.reason).toBe("gone");
  expect(getEventListeners(drain.signal, "abort")).toHaveLength(0);
});

test("the timeout aborts with a TIMEOUT error and sets timedOut; the sources are then detached", () => {
  vi.useFakeTimers();
  const drain = new AbortController();
  const run = createRunSignal({ sources: [drain.signal], timeoutMs: 5_000 });
  vi.advanceTimersByTime(4_999);
  expect(run.signal.aborted).toBe(false);
  vi.advanceTimersByTime(1);
  expect(run.signal.aborted).toBe(true);
  expect(run.timedOut).toBe(true);
  expect(isToolsiftError(run.signal.reason) && run.signal.reason.code).toBe("TIMEOUT");
  expect((run.signal.reason as Error).message).toBe("The run exceeded its timeout of 5000 ms.");
  expect(getEventListeners(drain.signal, "abort")).toHaveLength(0);
});

test("release removes the listeners from the sources and clears the timer; the signal stays as it was", () => {
  vi.useFakeTimers();
  const drain = new AbortController();
  const caller = new AbortController();
  const run = createRunSignal({ sources: [drain.signal, caller.signal], timeoutMs: 5_000 });
  expect(getEventListeners(drain.signal, "abort")).toHaveLength(1);
  expect(vi.getTimerCount()).toBe(1);
  run.release();
  run.release();
  expect(getEventListeners(drain.signal, "abort")).toHaveLength(0);
  expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  expect(vi.getTimerCount()).toBe(0);
  drain.abort();
  vi.advanceTimersByTime(10_000);
  expect(run.signal.aborted).toBe(false);
  expect(run.timedOut).toBe(false);
});

test("an abort by one source detaches the others", () => {
  const drain = new AbortController();
  const caller = new AbortController();
  createRunSignal({ sources: [drain.signal, caller.signal] });
  caller.abort();
  expect(getEventListeners(drain.signal, "abort")).toHaveLength(0);
});

test("armTimeout on a signal made without one: the same TIMEOUT error and timedOut, the sources detached", () => {
  vi.useFakeTimers();
  const drain = new AbortController();
  const run = createRunSignal({ sources: [drain.signal] });
  expect(vi.getTimerCount()).toBe(0);
  run.armTimeout(5_000);
  vi.advanceTimersByTime(4_999);
  expect(run.signal.aborted).toBe(false);
  vi.advanceTimersByTime(1);
  expect(run.timedOut).toBe(true);
  expect(isToolsiftError(run.signal.reason) && run.signal.reason.code).toBe("TIMEOUT");
  expect((run.signal.reason as Error).message).toBe("The run exceeded its timeout of 5000 ms.");
  expect(getEventListeners(drain.signal, "abort")).toHaveLength(0);

  const worded = createRunSignal();
  worded.armTimeout(10, "too slow");
  vi.advanceTimersByTime(10);
  expect((worded.signal.reason as Error).message).toBe("too slow");
});

test("armTimeout's disarm clears its timer alone and keeps the sources linked; release clears it too", () => {
  vi.useFakeTimers();
  const drain = new AbortController();
  const run = createRunSignal({ sources: [drain.signal] });
  const disarm = run.armTimeout(5_000);
  disarm();
  expect(vi.getTimerCount()).toBe(0);
  vi.advanceTimersByTime(10_000);
  expect(run.signal.aborted).toBe(false);
  expect(getEventListeners(drain.signal, "abort")).toHaveLength(1);
  drain.abort("stopping");
  expect(run.signal.reason).toBe("stopping");
  expect(run.timedOut).toBe(false);

  const released = createRunSignal();
  released.armTimeout(5_000);
  released.release();
  expect(vi.getTimerCount()).toBe(0);
  vi.advanceTimersByTime(10_000);
  expect(released.timedOut).toBe(false);
});

test("armTimeout on an aborted signal arms nothing", () => {
  vi.useFakeTimers();
  const run = createRunSignal();
  run.abort("done");
  run.armTimeout(5_000);
  expect(vi.getTimerCount()).toBe(0);
  expect(run.timedOut).toBe(false);
});
