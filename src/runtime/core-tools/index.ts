export { createCoreTools } from "./create-core-tools.js";
