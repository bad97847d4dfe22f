import { Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import {
  createGatewayCommand,
  type GatewayCommandDeps,
  type GatewayStartOptions,
} from "./gateway-command.js";

type Harness = {
  stdout: string[];
  stderr: string[];
  started: GatewayStartOptions[];
  stops: number;
  parse(args: string[]): Promise<void>;
};

/** A program wired like runCli (exit override, output routing) around the gateway command. */
function harness(overrides: Partial<GatewayCommandDeps> = {}): Harness {
  const state: Harness = {
    stdout: [],
    stderr: [],
    started: [],
    stops: 0,
    parse: async (args) => {
      const io = {
        stdout: (text: string) => state.stdout.push(text),
        stderr: (text: string) => state.stderr.push(text),
      };
      const program = new Command("toolsift")
        .exitOverride()
        .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
      const deps: GatewayCommandDeps = {
        start: async (options) => {
          state.started.push(options);
          return {
            url: "http://127.0.0.1:40123",
            stop: async () => {
              state.stops += 1;
            },
          };
        },
        ...overrides,
      };
      program.addCommand(createGatewayCommand(io, deps).copyInheritedSettings(program));
      await program.parseAsync(["gateway", ...args], { from: "user" });
    },
  };
  return state;
}

/** A shutdown trigger the test fires by hand. */
function manualShutdown(): {
  deps: Pick<GatewayCommandDeps, "waitForShutdown">;
  fire(signal: string): void;
  disposed(): number;
} {
  let fire!: (signal: string) => void;
  let disposed = 0;
  const signal = new Promise<string>((resolve) => {
    fire = resolve;
  });
  return {
    deps: {
      waitForShutdown: () => ({
        signal,
        dispose: () => {
          disposed += 1;
        },
      }),
    },
    fire: (name) => fire(name),
    disposed: () => disposed,
  };
}

describe("toolsift gateway", () => {
  it("starts with the given options, prints the address, and stops on the shutdown signal", async () => {
    const shutdown = manualShutdown();
    const test = harness(shutdown.deps);
    const running = test.parse(["--port", "0", "--bind", "::1", "--config", "conf.json5"]);
    await expect
      .poll(() => test.stdout.join(""))
      .toBe("toolsift gateway listening on http://127.0.0.1:40123\n");
    expect(test.started).toEqual([{ port: 0, bind: "::1", configPath: "conf.json5" }]);
    expect(test.stops).toBe(0);
    shutdown.fire("SIGTERM");
    await running;
    expect(test.stops).toBe(1);
    expect(shutdown.disposed()).toBe(1);
    expect(test.stderr.join("")).toContain("SIGTERM received, draining in-flight runs");
    expect(test.stderr.join("")).toContain("toolsift gateway stopped");
  });

  it("exits 0 once stopped when given exit, so a handle a tool left open cannot keep the process alive", async () => {
    const shutdown = manualShutdown();
    const exits: number[] = [];
    const test = harness({ ...shutdown.deps, exit: (code) => exits.push(code) });
    const running = test.parse(["--port", "0"]);
    await expect.poll(() => test.started.length).toBe(1);
    expect(exits).toEqual([]);
    shutdown.fire("SIGTERM");
    await running;
    expect(test.stops).toBe(1);
    expect(exits).toEqual([0]);
    expect(test.stderr.join("")).toContain("toolsift gateway stopped");
  });

  it("exits 1 at the stop deadline when the stop never finishes", async () => {
    const shutdown = manualShutdown();
    const exits: number[] = [];
    const test = harness({
      ...shutdown.deps,
      exit: (code) => exits.push(code),
      stopDeadlineMs: 50,
      start: async () => ({ url: "http://127.0.0.1:40123", stop: () => new Promise<void>(() => {}) }),
    });
    void test.parse(["--port", "0"]);
    await expect.poll(() => test.stdout.length).toBe(1);
    shutdown.fire("SIGTERM");
    await expect.poll(() => exits).toEqual([1]);
    expect(test.stderr.join("")).toContain("the stop did not finish within 50 ms; exiting");
    expect(test.stderr.join("")).not.toContain("toolsift gateway stopped");
  });

  it("leaves unset options to the config", async () => {
    const shutdown = manualShutdown();
    const test = harness(shutdown.deps);
    const running = test.parse([]);
    await expect.poll(() => test.started.length).toBe(1);
    expect(test.started[0]).toEqual({});
    shutdown.fire("SIGINT");
    await running;
  });

  it("stops on a real SIGINT or SIGTERM event and removes its signal listeners", async () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const before = { int: process.listenerCount("SIGINT"), term: process.listenerCount("SIGTERM") };
      const test = harness();
      const running = test.parse(["--port", "0"]);
      await expect.poll(() => test.stdout.length).toBe(1);
      expect(process.listenerCount(signal)).toBe((signal === "SIGINT" ? before.int : before.term) + 1);
      process.emit(signal, signal);
      await running;
      expect(test.stops).toBe(1);
      expect(process.listenerCount("SIGINT")).toBe(before.int);
      expect(process.listenerCount("SIGTERM")).toBe(before.term);
    }
  });

  it("passes a start failure on, with its signal listeners removed", async () => {
    const before = process.listenerCount("SIGTERM");
    const test = harness({
      start: async () => {
        throw new Error("the port is in use");
      },
    });
    await expect(test.parse(["--port", "1"])).rejects.toThrow("the port is in use");
    expect(process.listenerCount("SIGTERM")).toBe(before);
    expect(test.stdout).toEqual([]);
  });

  it.each([["70000"], ["65536"], ["-1"], ["abc"], ["1.5"], [""], ["0x10"]])(
    "refuses --port %j as a usage error without starting",
    async (port) => {
      const test = harness();
      const failure = await test.parse(["--port", port]).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(CommanderError);
      expect((failure as CommanderError).code).toBe("commander.invalidArgument");
      expect(test.stderr.join("")).toContain("port must be an integer from 0 to 65535");
      expect(test.started).toEqual([]);
    },
  );

  it.each([["0"], ["65535"], ["18789"]])("accepts --port %s", async (port) => {
    const shutdown = manualShutdown();
    const test = harness(shutdown.deps);
    const running = test.parse(["--port", port]);
    await expect.poll(() => test.started.length).toBe(1);
    expect(test.started[0]?.port).toBe(Number(port));
    shutdown.fire("SIGTERM");
    await running;
  });

  it("refuses a blank --bind as a usage error", async () => {
    const test = harness();
    await expect(test.parse(["--bind", " "])).rejects.toBeInstanceOf(CommanderError);
    expect(test.started).toEqual([]);
  });

  it("documents itself in --help", async () => {
    const test = harness();
    await expect(test.parse(["--help"])).rejects.toMatchObject({ code: "commander.helpDisplayed" });
    const help = test.stdout.join("");
    expect(help).toContain("--port <n>");
    expect(help).toContain("--bind <addr>");
    expect(help).toContain("--config <file>");
    expect(help).toContain("0 picks a free");
    // Every route the gateway registers (gateway/*-routes.ts) is named.
    for (const route of [
      "/v1/responses",
      "/v1/chat/completions",
      "/v1/messages",
      "/v1/models",
      "/v1/responses/:id",
      "/v1/tools/effective",
      "/v1/sessions",
      "/v1/sessions/:key",
      "/v1/approvals",
      "/v1/approvals/:id",
      "/healthz",
    ])
      expect(help).toMatch(new RegExp(`${route.replaceAll("/", "\\/")}[\\s,.)]`, "u"));
  });
});
