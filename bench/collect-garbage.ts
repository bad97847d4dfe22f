import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");

/**
 * A full garbage collection (exposed to the benchmarks only): builds start from a collected heap, and
 * retained memory is measured after one.
 */
export const collectGarbage = runInNewContext("gc") as () => void;
