// `npm run docs:config`: writes docs/config.md from the config schema (src/runtime/config/config-reference.ts).
import { writeFileSync } from "node:fs";
import { renderConfigReference } from "../src/runtime/config/config-reference.js";

writeFileSync(new URL("../docs/config.md", import.meta.url), renderConfigReference());
