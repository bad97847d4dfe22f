/** Where the CLI writes: stdout for answers, stderr for errors and usage. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stderr is a terminal: long work shows progress there, and stays quiet in pipes and CI. */
  isTerminal?: boolean;
}
