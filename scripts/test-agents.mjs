#!/usr/bin/env node
// `npm run test:agents`: installs the pinned agent CLIs (test/agents, kept out of the root install) when they
// are missing, then runs the agent lanes (test/agents/*.test.ts) against the built CLI.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const agents = join(root, "test/agents");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const installed = ["claude", "codex"].every((bin) => existsSync(join(agents, "node_modules/.bin", bin)));
if (!installed) {
  console.log("Installing the agent CLIs pinned in test/agents/package.json (npm ci --prefix test/agents)…");
  run(npm, ["ci", "--prefix", "test/agents", "--no-audit", "--no-fund"]);
}
run(npm, ["run", "build"]);
run(process.execPath, [
  join(root, "node_modules/vitest/vitest.mjs"),
  "run",
  "test/agents",
  ...process.argv.slice(2),
]);
