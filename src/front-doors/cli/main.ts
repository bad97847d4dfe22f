#!/usr/bin/env node
import { endOnClosedOutput } from "./end-on-closed-output.js";
import { runCli } from "./run-cli.js";

endOnClosedOutput({ stdout: process.stdout, stderr: process.stderr });

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTerminal: process.stderr.isTTY === true && process.env.CI === undefined,
  exit: (code) => process.exit(code),
});
