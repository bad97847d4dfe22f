export { type WriteFileAtomicOptions, writeFileAtomic } from "./write-file-atomic.js";
