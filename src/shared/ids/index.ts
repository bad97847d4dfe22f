export { randomHex } from "./random-hex.js";
