import { ToolsiftError } from "../../shared/errors/index.js";

/** Who could not listen where, and which options move it (named in the message). */
export type ListenErrorContext = {
  /** The server as a sentence names it: `the gateway`, `mcp serve`. */
  name: string;
  host: string;
  port: number;
  /** Where the port is set, e.g. `--port, or gateway.port in the config`. */
  portOption: string;
  /** Where the address is set, e.g. `--bind, or gateway.bind in the config`. */
  bindOption: string;
};

/**
 * The error a front door reports when `serveHardened` cannot listen: a port in use, an address not of this
 * machine or a privileged port are CONFIG_INVALID naming the option that fixes them; anything else INTERNAL.
 */
export function listenError(error: NodeJS.ErrnoException, context: ListenErrorContext): ToolsiftError {
  const where = `${context.host}:${context.port}`;
  if (error.code === "EADDRINUSE") {
    return new ToolsiftError(
      "CONFIG_INVALID",
      `${context.name} cannot listen on ${where}: the port is in use. Stop the other process, or pick another port (${context.portOption}; 0 picks a free one).`,
    );
  }
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
    return new ToolsiftError(
      "CONFIG_INVALID",
      `${context.name} cannot listen on ${where}: "${context.host}" is not an address of this machine. Use 127.0.0.1 (${context.bindOption}).`,
    );
  }
  if (error.code === "EACCES") {
    return new ToolsiftError(
      "CONFIG_INVALID",
      `${context.name} may not listen on ${where}: permission denied. Use a port above 1023.`,
    );
  }
  return new ToolsiftError("INTERNAL", `${context.name} cannot listen on ${where}: ${error.message}`);
}
