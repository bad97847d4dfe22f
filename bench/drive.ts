import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/** Linux clock ticks per second (`getconf CLK_TCK`), the unit of utime/stime in `/proc/<pid>/stat`. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Calls `once` with `concurrency` in flight, `count` times in all or until `ms` have passed. */
export async function drive(
  once: () => Promise<boolean>,
  until: { count?: number; ms?: number },
  concurrency: number,
): Promise<{ done: number; failed: number; seconds: number }> {
  const started = performance.now();
  let begun = 0;
  let done = 0;
  let failed = 0;
  const more = () =>
    until.count !== undefined ? begun < until.count : performance.now() - started < (until.ms ?? 0);
  const worker = async () => {
    while (more()) {
      begun += 1;
      const ok = await once().catch(() => false);
      if (ok) done += 1;
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { done, failed, seconds: (performance.now() - started) / 1000 };
}

/** utime + stime of a process, in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
