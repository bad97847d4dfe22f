/** Where the CLI writes: stdout for answers, stderr for errors and usage. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}
