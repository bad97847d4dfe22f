/** Where the CLI writes: stdout for answers, stderr for errors and usage. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stderr is a terminal: long work shows progress there, and stays quiet in pipes and CI. */
  isTerminal?: boolean;
  /**
   * Ends the process at once with `code`. Only the real entry point (`main.ts`) gives it, so `runCli` never
   * exits in-process; `toolsift gateway` uses it to exit once stopped, whatever a tool left open.
   */
  exit?: (code: number) => void;
}
