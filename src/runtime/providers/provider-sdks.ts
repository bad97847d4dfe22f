import {
  installCommandFor,
  missingPackages,
  missingPackagesProblem,
  type OptionalPackage,
} from "../optional-packages/index.js";
import type { ProviderSettings } from "./types.js";

/**
 * The official clients the providers speak through: optional peer dependencies of the package (the library
 * needs neither), installed by whoever runs the gateway, at the versions toolsift is tested with.
 */
export const OPENAI_SDK: OptionalPackage = { name: "openai", version: "6.49.0" };
export const ANTHROPIC_SDK: OptionalPackage = { name: "@anthropic-ai/sdk", version: "1.15.0" };
export const PROVIDER_SDKS: readonly OptionalPackage[] = [ANTHROPIC_SDK, OPENAI_SDK];

/** The client package a provider of `api` loads on its first request. */
export function providerSdk(api: ProviderSettings["api"]): OptionalPackage {
  return api === "anthropic-messages" ? ANTHROPIC_SDK : OPENAI_SDK;
}

/** Who needs the client, as the missing-package message names it. */
export function providerSdkUser(id: string, api: ProviderSettings["api"]): string {
  return `Provider "${id}" (api ${api})`;
}

/**
 * Why provider `id` cannot load its client (its package is not installed) and the command that installs it,
 * or undefined when it can. The package is resolved, not loaded.
 */
export function providerSdkProblem(
  id: string,
  api: ProviderSettings["api"],
): { problem: string; command: string } | undefined {
  const missing = missingPackages([providerSdk(api)]);
  if (missing.length === 0) return undefined;
  return {
    problem: missingPackagesProblem(providerSdkUser(id, api), missing),
    command: installCommandFor(missing),
  };
}
