export { writeFileAtomic } from "./write-file-atomic.js";
