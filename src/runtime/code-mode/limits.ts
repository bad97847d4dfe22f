/** Default wall-clock limit of one cell, in ms (`codeMode.timeoutMs`). */
export const DEFAULT_CELL_TIMEOUT_MS = 10_000;
/** Smallest accepted cell timeout, in ms; smaller values are raised to it. */
export const MIN_CELL_TIMEOUT_MS = 1_000;
/** Largest accepted cell timeout, in ms; larger values are lowered to it. */
export const MAX_CELL_TIMEOUT_MS = 60_000;

/** Default memory limit of a cell's QuickJS runtime, in bytes (64 MiB). */
export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 2 ** 20;
/** Smallest accepted QuickJS memory limit (8 MiB). */
export const MIN_MEMORY_LIMIT_BYTES = 8 * 2 ** 20;
/** Largest accepted QuickJS memory limit (512 MiB). */
export const MAX_MEMORY_LIMIT_BYTES = 512 * 2 ** 20;
/**
 * WebAssembly memory of a child beyond twice the QuickJS memory limit (allocator overhead on many small
 * objects): the module's static data and stack, and ArrayBuffer storage, which this QuickJS build does not
 * count against its own limit. The child's WebAssembly memory cannot grow past 2 × memoryLimitBytes + this.
 */
export const WASM_MEMORY_HEADROOM_BYTES = 32 * 2 ** 20;
/**
 * Most bytes of stack a cell may use inside QuickJS: deep recursion fails the cell with a stack overflow
 * (about 1,500 nested calls) before the child's own V8 stack runs out.
 */
export const MAX_STACK_BYTES = 256 * 1024;

/** Default cap on bridge calls (`tools.search/describe/call/callValue`) per cell; the next one fails the cell. */
export const DEFAULT_MAX_BRIDGE_CALLS = 256;
/** Largest accepted bridge call cap. */
export const MAX_BRIDGE_CALLS_CEILING = 10_000;

/** Default cap on a cell's captured console output, in UTF-8 bytes; later output is dropped behind a marker. */
export const DEFAULT_MAX_LOG_BYTES = 16 * 1024;
/** Smallest accepted log cap. */
export const MIN_LOG_BYTES = 1024;
/** Largest accepted log cap. */
export const MAX_LOG_BYTES_CEILING = 1024 * 1024;

/** Default number of pre-started children kept warm. */
export const DEFAULT_POOL_SIZE = 1;
/** Largest warm pool. */
export const MAX_POOL_SIZE = 2;

/** Default `yieldMs` of exec and wait: how long a call waits before answering `{ status: "running" }`. */
export const DEFAULT_YIELD_MS = 10_000;
/** Largest accepted `yieldMs`. */
export const MAX_YIELD_MS = 60_000;

/** Longest cell source accepted by exec, in characters. */
export const MAX_SOURCE_CHARS = 100_000;
/** Most bytes of a cell's JSON value (the returned value of the async function body). */
export const MAX_VALUE_BYTES = 256 * 1024;
/** Most bytes of one bridge answer (a search, description or call envelope) sent into a cell. */
export const MAX_BRIDGE_REPLY_BYTES = 4 * 2 ** 20;
/** Most characters of one IPC message the parent accepts from a child; longer ones break the protocol. */
export const MAX_CHILD_MESSAGE_CHARS = 2 * MAX_BRIDGE_REPLY_BYTES;
/** Most characters of an error message reported for a failed cell. */
export const MAX_CELL_ERROR_CHARS = 2_000;

/** Cells of one Code Mode instance that may run at once; exec answers BUSY beyond it. */
export const MAX_CONCURRENT_CELLS = 4;
/** Runs that outlived their yield and are kept for `wait`, finished or not; the oldest finished go first. */
export const MAX_TRACKED_RUNS = 64;

/** Extra time the parent gives the child past the cell's timeout before it kills the child (the backstop). */
export const KILL_GRACE_MS = 500;
/** How long a child may take to load QuickJS and report ready before it counts as unable to start. */
export const STARTUP_TIMEOUT_MS = 15_000;
/** V8 old-space ceiling of a child beyond the QuickJS memory limit, in MiB (the child's own heap). */
export const CHILD_HEAP_HEADROOM_MB = 64;
/** Most bytes of a child's stderr kept to explain a failed start. */
export const MAX_STDERR_BYTES = 4 * 1024;

/** Characters of a catalog id listed in exec's quick index; longer ids are omitted (still searchable). */
export const MAX_INDEXED_ID_CHARS = 160;
