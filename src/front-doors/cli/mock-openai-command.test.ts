import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { startMockOpenAI } from "../../dev/mock-openai/index.js";
import { createMockOpenAICommand } from "./mock-openai-command.js";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("toolsift mock-openai (in process)", () => {
  it("prints its base URL, serves until stopped, then closes the server", async () => {
    const { out, io } = capture();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const running = createMockOpenAICommand(io, { until: () => stopped })
      .exitOverride()
      .parseAsync(["--port", "0"], { from: "user" });
    await until(() => out.length > 0);
    const match = /^Mock OpenAI provider listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n$/u.exec(out[0] ?? "");
    expect(match).not.toBeNull();
    const baseUrl = match?.[1] ?? "";
    expect((await fetch(`${baseUrl}/models`)).status).toBe(200);
    stop();
    await running;
    const afterClose = await fetch(`${baseUrl}/models`).then(
      () => "answered",
      () => "refused",
    );
    expect(afterClose).toBe("refused");
  });

  it.each([["abc"], ["-1"], ["65536"], ["1.5"]])("refuses --port %s as a usage error", async (port) => {
    const { err, io } = capture();
    const command = createMockOpenAICommand(io, { until: async () => undefined })
      .exitOverride()
      .configureOutput({ writeErr: io.stderr, writeOut: io.stdout });
    const error = await command
      .parseAsync(["--port", port], { from: "user" })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(CommanderError);
    expect(err.join("")).toContain("port must be a whole number from 0 to 65535.");
  });

  it("fails with a clear message when the port is taken", async () => {
    const taken = await startMockOpenAI();
    try {
      const { io } = capture();
      const error = await createMockOpenAICommand(io, { until: async () => undefined })
        .exitOverride()
        .parseAsync(["--port", String(taken.port)], { from: "user" })
        .catch((reason: unknown) => reason);
      expect((error as Error).message).toBe(
        `The mock OpenAI provider could not listen: port ${taken.port} on 127.0.0.1 is already in use. Pick another port, or 0 for a free one.`,
      );
    } finally {
      await taken.close();
    }
  });
});
