import { EXIT_SUCCESS } from "./exit-codes.js";

/** The two output streams of the process, as `endOnClosedOutput` needs them. */
export type ProcessOutput = {
  stdout: NodeJS.EventEmitter;
  stderr: NodeJS.EventEmitter;
  /** Ends the process. Default `process.exit`. */
  exit?: (code: number) => void;
};

/**
 * A reader that closes our stdout early (`toolsift sessions | head -1`) ends the command quietly with exit 0,
 * as the reader asked for no more: no `EPIPE` stack trace. A closed stderr is ignored (nothing could report
 * it), so the command still ends with its own exit code. Any other stream error stays fatal, as Node makes it.
 */
export function endOnClosedOutput(output: ProcessOutput): void {
  const exit = output.exit ?? ((code: number) => process.exit(code));
  output.stdout.on("error", (error: unknown) => {
    if (isClosedPipe(error)) exit(EXIT_SUCCESS);
    else throw error;
  });
  output.stderr.on("error", (error: unknown) => {
    if (!isClosedPipe(error)) throw error;
  });
}

function isClosedPipe(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EPIPE";
}
