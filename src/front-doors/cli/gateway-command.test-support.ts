// A real `toolsift gateway` process for gateway-command.e2e.test.ts, run with `node --import tsx`:
// argv: <stateDir> <gateway arguments...>. The runner is the gateway tests' FakeRunner, which reports each run
// start on stderr; the run labelled "hold:drain" is released only once the stop (drain) has begun.
import { Command, CommanderError } from "commander";
import { createFileSessionStore } from "../../runtime/sessions/index.js";
import { FakeRunner } from "../gateway/fake-runner.test-support.js";
import { startGateway } from "../gateway/index.js";
import { createGatewayCommand } from "./gateway-command.js";

const [stateDir, ...args] = process.argv.slice(2);
if (stateDir === undefined) throw new Error("usage: gateway-command.test-support.ts <stateDir> [args]");

const io = {
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
};
const sessions = createFileSessionStore(stateDir);
const runner = new FakeRunner(sessions, { onStart: (label) => io.stderr(`run started: ${label}\n`) });
const program = new Command("toolsift")
  .exitOverride()
  .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
const command = createGatewayCommand(io, {
  start: async (options) => {
    const started = await startGateway({
      runner,
      sessions,
      port: options.port ?? 0,
      host: options.bind ?? "127.0.0.1",
      log: (line) => io.stderr(`${line}\n`),
    });
    return {
      url: started.url,
      stop: async () => {
        const stopping = started.stop();
        io.stderr(`draining: ${started.gateway.stats().draining}\n`);
        runner.release("hold:drain");
        await stopping;
        await runner.close();
      },
    };
  },
});
program.addCommand(command.copyInheritedSettings(program));

try {
  await program.parseAsync(args, { from: "user" });
  process.exitCode = 0;
} catch (error) {
  if (!(error instanceof CommanderError))
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof CommanderError ? 2 : 1;
}
