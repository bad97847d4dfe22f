import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");

/**
 * A full garbage collection (exposed to the benchmarks only), to measure retained memory. Never called before
 * a timed build: a forced collection makes the next build two to three times slower (fresh pages, cold
 * allocation paths), which no real run sees.
 */
export const collectGarbage = runInNewContext("gc") as () => void;
