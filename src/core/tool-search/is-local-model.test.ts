import { describe, expect, it } from "vitest";
import { isLocalHost, isLocalModel } from "./is-local-model.js";
import type { ModelReference } from "./settings-types.js";

type Probe = [description: string, model: ModelReference, local: boolean];

const probes: Probe[] = [
  // Providers that are local by definition.
  ["ollama provider", { provider: "ollama", id: "llama3.1:8b" }, true],
  ["Ollama provider, mixed case", { provider: "Ollama", id: "qwen3" }, true],
  ["lmstudio provider", { provider: "lmstudio", id: "qwen2.5-7b" }, true],
  ["lm-studio provider", { provider: "lm-studio", id: "qwen2.5-7b" }, true],
  ["llama.cpp provider", { provider: "llama.cpp", id: "gguf" }, true],
  ["llamacpp provider", { provider: "llamacpp", id: "gguf" }, true],
  ["llama-cpp provider", { provider: "llama-cpp", id: "gguf" }, true],
  [
    "ollama with a remote baseUrl is still local",
    { provider: "ollama", id: "m", baseUrl: "https://gpu.example.com" },
    true,
  ],
  // Ollama cloud tags and Ollama's hosted API.
  ["ollama -cloud tag", { provider: "ollama", id: "gpt-oss:120b-cloud" }, false],
  ["ollama -cloud tag (kimi)", { provider: "ollama", id: "kimi-k2:1t-cloud" }, false],
  ["ollama :cloud tag", { provider: "ollama", id: "x:cloud" }, false],
  ["ollama :CLOUD tag, upper case", { provider: "ollama", id: "x:CLOUD" }, false],
  [
    "ollama cloud tag on a loopback daemon",
    { provider: "ollama", id: "x:cloud", baseUrl: "http://127.0.0.1:11434" },
    false,
  ],
  [
    "ollama untagged alias on the daemon",
    { provider: "ollama", id: "my-alias", baseUrl: "http://127.0.0.1:11434/v1" },
    true,
  ],
  ["ollama cloud word not as a suffix", { provider: "ollama", id: "cloudy:7b" }, true],
  [
    "ollama pointed at ollama.com",
    { provider: "ollama", id: "gpt-oss:120b", baseUrl: "https://ollama.com/api" },
    false,
  ],
  [
    "cloud suffix on another provider's local server",
    { provider: "vllm", id: "x-cloud", baseUrl: "http://10.0.0.5:8000/v1" },
    true,
  ],
  // localService.
  ["localService true", { provider: "custom", id: "m", localService: true }, true],
  [
    "localService true with a public baseUrl",
    { provider: "custom", id: "m", baseUrl: "https://api.example.com", localService: true },
    true,
  ],
  [
    "localService false beats a loopback baseUrl",
    { provider: "custom", id: "m", baseUrl: "http://127.0.0.1:8000", localService: false },
    false,
  ],
  [
    "localService false beats the ollama provider",
    { provider: "ollama", id: "m", localService: false },
    false,
  ],
  // Loopback.
  ["127.0.0.1", { provider: "vllm", id: "m", baseUrl: "http://127.0.0.1:8000/v1" }, true],
  ["127.9.8.7", { provider: "vllm", id: "m", baseUrl: "http://127.9.8.7/v1" }, true],
  ["127.1 shorthand", { provider: "vllm", id: "m", baseUrl: "http://127.1:8000" }, true],
  ["localhost", { provider: "vllm", id: "m", baseUrl: "http://localhost:8000/v1" }, true],
  ["LOCALHOST. with trailing dot", { provider: "vllm", id: "m", baseUrl: "http://LOCALHOST.:8000" }, true],
  ["api.localhost", { provider: "vllm", id: "m", baseUrl: "http://api.localhost" }, true],
  ["::1", { provider: "vllm", id: "m", baseUrl: "http://[::1]:8000/v1" }, true],
  ["IPv4-mapped loopback", { provider: "vllm", id: "m", baseUrl: "http://[::ffff:127.0.0.1]:8000" }, true],
  ["0.0.0.0", { provider: "vllm", id: "m", baseUrl: "http://0.0.0.0:1234/v1" }, true],
  // Private and link-local addresses.
  ["10.x", { provider: "vllm", id: "m", baseUrl: "http://10.1.2.3:8000" }, true],
  ["172.16.x", { provider: "vllm", id: "m", baseUrl: "http://172.16.0.1" }, true],
  ["172.31.x", { provider: "vllm", id: "m", baseUrl: "http://172.31.255.254" }, true],
  ["172.32.x is public", { provider: "vllm", id: "m", baseUrl: "http://172.32.0.1" }, false],
  ["172.15.x is public", { provider: "vllm", id: "m", baseUrl: "http://172.15.0.1" }, false],
  ["192.168.x", { provider: "vllm", id: "m", baseUrl: "http://192.168.1.20:11434" }, true],
  ["192.169.x is public", { provider: "vllm", id: "m", baseUrl: "http://192.169.1.20" }, false],
  ["169.254.x", { provider: "vllm", id: "m", baseUrl: "http://169.254.10.10" }, true],
  ["fc00::/7 (fd..)", { provider: "vllm", id: "m", baseUrl: "http://[fd12:3456::1]:8000" }, true],
  ["fc00::/7 (fc..)", { provider: "vllm", id: "m", baseUrl: "http://[fc00::1]" }, true],
  ["fe80::/10", { provider: "vllm", id: "m", baseUrl: "http://[fe80::1]" }, true],
  ["public IPv6", { provider: "vllm", id: "m", baseUrl: "http://[2001:db8::1]" }, false],
  ["public IPv4", { provider: "vllm", id: "m", baseUrl: "http://8.8.8.8/v1" }, false],
  // Local names.
  ["*.local", { provider: "vllm", id: "m", baseUrl: "http://gpu-box.local:8000" }, true],
  ["*.lan", { provider: "vllm", id: "m", baseUrl: "http://nas.lan/v1" }, true],
  ["*.home.arpa", { provider: "vllm", id: "m", baseUrl: "https://llm.home.arpa" }, true],
  ["host.docker.internal", { provider: "vllm", id: "m", baseUrl: "http://host.docker.internal:11434" }, true],
  ["dot-less host name", { provider: "vllm", id: "m", baseUrl: "http://ollama:11434/v1" }, true],
  ["public name", { provider: "openai", id: "gpt-5", baseUrl: "https://api.openai.com/v1" }, false],
  [
    "public name ending in local-ish words",
    { provider: "x", id: "m", baseUrl: "https://local.example.com" },
    false,
  ],
  [
    "a name with .lan. inside is public",
    { provider: "x", id: "m", baseUrl: "https://a.lan.example.com" },
    false,
  ],
  // Never from the model name alone.
  ["model name says local", { provider: "openai", id: "llama3-local" }, false],
  ["model name says ollama", { provider: "openrouter", id: "ollama/llama3" }, false],
  ["no baseUrl, hosted provider", { provider: "openai", id: "gpt-5.4-mini" }, false],
  // Unparsable or odd base URLs never throw and are not local.
  ["unparsable baseUrl", { provider: "vllm", id: "m", baseUrl: "not a url" }, false],
  [
    "scheme-less host:port parses without a host",
    { provider: "vllm", id: "m", baseUrl: "localhost:11434" },
    false,
  ],
  ["empty baseUrl", { provider: "vllm", id: "m", baseUrl: "" }, false],
  ["IPv6 zone id does not parse", { provider: "vllm", id: "m", baseUrl: "http://[fe80::1%eth0]/" }, false],
];

describe("isLocalModel", () => {
  it.each(probes)("%s", (_description, model, local) => {
    expect(isLocalModel(model)).toBe(local);
  });

  it("never throws on hostile model references", () => {
    const throwing = Object.defineProperty({ id: "m" }, "provider", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const revocable = Proxy.revocable({ provider: "ollama", id: "m" }, {});
    revocable.revoke();
    const nonString = { provider: 42, id: null, baseUrl: { toString: () => "http://127.0.0.1" } };
    expect(isLocalModel(throwing as unknown as ModelReference)).toBe(false);
    expect(isLocalModel(revocable.proxy)).toBe(false);
    expect(isLocalModel(nonString as unknown as ModelReference)).toBe(false);
    expect(isLocalModel(null as unknown as ModelReference)).toBe(false);
    expect(isLocalModel({ provider: "vllm", id: "m", baseUrl: `http://${"a".repeat(100_000)}.com` })).toBe(
      false,
    );
  });
});

describe("isLocalHost", () => {
  it.each([
    ["localhost", true],
    ["[::1]", true],
    ["", false],
    ["example.com", false],
    ["router", true],
  ] as const)("%s → %s", (host, local) => {
    expect(isLocalHost(host)).toBe(local);
  });
});
