import { importNeeding } from "../optional-packages/index.js";
import { providerSdk, providerSdkUser } from "./provider-sdks.js";
import { resolveProviderSettings } from "./provider-settings.js";
import type { CreateProviderOptions, Provider, ProviderSettings } from "./types.js";

/**
 * A provider for `settings.api`: `anthropic-messages` speaks through the `@anthropic-ai/sdk` client
 * (`anthropic-provider.ts`), `openai-responses` and `openai-chat` through the `openai` client
 * (`openai-provider.ts`). Both clients are optional peer dependencies: the provider's module, and with it its
 * client, is imported on the first request, and a client that is not installed fails that request (and every
 * later one until it is) with `PROVIDER_FAILED` naming the command that installs it. Throws `CONFIG_INVALID`
 * at once for bad settings; the environment is read now, as the provider's settings are.
 */
export function createProvider(
  id: string,
  settings: ProviderSettings,
  options: CreateProviderOptions = {},
): Provider {
  resolveProviderSettings(id, settings, options.env);
  const loadOptions: CreateProviderOptions = { ...options, env: { ...(options.env ?? process.env) } };
  let loading: Promise<Provider> | undefined;
  const provider = (): Promise<Provider> => {
    loading ??= loadProvider(id, settings, loadOptions).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    id,
    async complete(request) {
      return (await provider()).complete(request);
    },
  };
}

async function loadProvider(
  id: string,
  settings: ProviderSettings,
  options: CreateProviderOptions,
): Promise<Provider> {
  const needs = { what: providerSdkUser(id, settings.api), packages: [providerSdk(settings.api)] };
  if (settings.api === "anthropic-messages") {
    const { createAnthropicProvider } = await importNeeding(() => import("./anthropic-provider.js"), {
      ...needs,
      code: "PROVIDER_FAILED",
    });
    return createAnthropicProvider(id, settings, options);
  }
  const { createOpenAIProvider } = await importNeeding(() => import("./openai-provider.js"), {
    ...needs,
    code: "PROVIDER_FAILED",
  });
  return createOpenAIProvider(id, settings, options);
}
