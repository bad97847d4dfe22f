// `npm run docs:config`: writes docs/config.md from the config schema (src/runtime/config/config-reference.ts)
// and each key's default and example (src/front-doors/cli/config-key-notes.ts).
import { writeFileSync } from "node:fs";
import { renderConfigDocs } from "../src/front-doors/cli/config-key-notes.js";

writeFileSync(new URL("../docs/config.md", import.meta.url), renderConfigDocs());
