import { checkBindAuth, DEFAULT_BIND_HOST } from "../../runtime/http-guard/index.js";
import { createGateway } from "./create-gateway.js";
import { GATEWAY_DRAIN_TIMEOUT_MS } from "./limits.js";
import type { Gateway, GatewayOptions } from "./types.js";

/** Default TCP port of `toolsift gateway`. */
export const DEFAULT_GATEWAY_PORT = 18789;

/** Default bind address of `toolsift gateway`: every front door's (`DEFAULT_BIND_HOST`, loopback only). */
export const DEFAULT_GATEWAY_HOST = DEFAULT_BIND_HOST;

/** Options of `startGateway`: the gateway's, plus where to listen and how long a stop may drain. */
export type StartGatewayOptions = GatewayOptions & {
  /** Default 18789; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Bound on draining in-flight runs when stopping. Default 30 s (`GATEWAY_DRAIN_TIMEOUT_MS`). */
  drainTimeoutMs?: number;
};

/** A started gateway: where it listens, and how to stop it. */
export type StartedGateway = {
  gateway: Gateway;
  url: string;
  port: number;
  /** Drains in-flight runs (bounded), then stops listening. Safe to call more than once. */
  stop(): Promise<void>;
};

/**
 * Creates a gateway and listens: the building block of `toolsift gateway` and of tests. A host other than
 * loopback without an `authToken` or `authKeys`, or a blank `authToken`, is refused (CONFIG_INVALID, `checkBindAuth`)
 * before anything listens.
 */
export async function startGateway(options: StartGatewayOptions): Promise<StartedGateway> {
  const host = options.host ?? DEFAULT_GATEWAY_HOST;
  checkBindAuth({
    host,
    ...(options.authToken === undefined ? {} : { token: options.authToken }),
    ...(options.authKeys === undefined ? {} : { keys: options.authKeys }),
  });
  const gateway = createGateway(options);
  const listener = await gateway.listen({ port: options.port ?? DEFAULT_GATEWAY_PORT, host });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= gateway
      .drain(options.drainTimeoutMs ?? GATEWAY_DRAIN_TIMEOUT_MS)
      .then(() => listener.close());
    return stopping;
  };
  return { gateway, url: listener.url, port: listener.port, stop };
}
