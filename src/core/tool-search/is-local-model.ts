import { BlockList, isIP } from "node:net";
import { LRUCache } from "lru-cache";
import { safeRead, safeReadString } from "../../shared/schema/index.js";
import { MAX_REMEMBERED_HOSTS } from "./limits.js";
import type { ModelReference } from "./settings-types.js";

/** Provider ids (lowercased, with `-`, `_`, `.` and spaces removed) that always serve locally. */
const LOCAL_PROVIDERS: ReadonlySet<string> = new Set(["ollama", "lmstudio", "llamacpp"]);

/** Model id suffixes that mark an Ollama model as hosted (`gpt-oss:120b-cloud`, `x:cloud`). */
const OLLAMA_CLOUD_SUFFIXES = [":cloud", "-cloud"] as const;

/** Ollama's own hosted API: a provider named Ollama that points here is not local. */
const OLLAMA_HOSTED_DOMAIN = "ollama.com";

/** Host-name suffixes of local networks. */
const LOCAL_NAME_SUFFIXES = [".localhost", ".local", ".lan", ".home.arpa"] as const;

/** Host names that always reach the local machine or its container host. */
const LOCAL_NAMES: ReadonlySet<string> = new Set(["localhost", "host.docker.internal"]);

/** Loopback, private, link-local and unspecified address ranges. */
const LOCAL_ADDRESSES = createLocalAddressList();

/**
 * True when the model is served locally (config.md "Local models"): the provider is Ollama, LM Studio or
 * llama.cpp, or is configured with `localService: true`, or its `baseUrl` host is loopback, private,
 * `*.local`, `*.lan`, `*.home.arpa`, `host.docker.internal` or a dot-less name. Ollama models tagged
 * `:cloud`/`-cloud` are hosted; `localService: false` marks a provider hosted; the model name alone never
 * makes a model local. Never throws, whatever it is given.
 */
export function isLocalModel(model: ModelReference): boolean {
  const provider = normalizeProvider(safeReadString(model, "provider"));
  const modelId = safeReadString(model, "id").trim().toLowerCase();
  const baseUrl = safeRead(model, "baseUrl");
  const host = typeof baseUrl === "string" ? hostOf(baseUrl) : undefined;

  if (provider === "ollama") {
    if (OLLAMA_CLOUD_SUFFIXES.some((suffix) => modelId.endsWith(suffix))) return false;
    if (host !== undefined && (host === OLLAMA_HOSTED_DOMAIN || host.endsWith(`.${OLLAMA_HOSTED_DOMAIN}`))) {
      return false;
    }
  }
  const localService = safeRead(model, "localService");
  if (localService === false) return false;
  if (localService === true || LOCAL_PROVIDERS.has(provider)) return true;
  return host !== undefined && isLocalHost(host);
}

/** Answers of `isLocalHost` for host names seen before (a bounded memo of a pure function of one string). */
const localHosts = new LRUCache<string, boolean>({ max: MAX_REMEMBERED_HOSTS });

/** True when a URL host name (as `URL.hostname` gives it) names a local machine or network. */
export function isLocalHost(hostname: string): boolean {
  const known = localHosts.get(hostname);
  if (known !== undefined) return known;
  const local = judgeHost(hostname);
  localHosts.set(hostname, local);
  return local;
}

function judgeHost(hostname: string): boolean {
  let host = hostname.toLowerCase();
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.length === 0) return false;
  const family = isIP(host);
  if (family === 4) return LOCAL_ADDRESSES.check(host, "ipv4");
  if (family === 6) return LOCAL_ADDRESSES.check(host, "ipv6");
  if (LOCAL_NAMES.has(host)) return true;
  if (LOCAL_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  return !host.includes(".");
}

function normalizeProvider(provider: string): string {
  return provider.toLowerCase().replace(/[-_.\s]/gu, "");
}

/**
 * Host names of base URLs seen before, "" for a URL without one (a config has a handful; every run asks
 * again): a bounded memo of a pure function of one string.
 */
const hosts = new LRUCache<string, string>({ max: MAX_REMEMBERED_HOSTS });

/** The host name of a URL, or `undefined` when it does not parse or has no host. */
function hostOf(url: string): string | undefined {
  let hostname = hosts.get(url);
  if (hostname === undefined) {
    const trimmed = url.trim();
    hostname = URL.canParse(trimmed) ? new URL(trimmed).hostname : "";
    hosts.set(url, hostname);
  }
  return hostname.length > 0 ? hostname : undefined;
}

function createLocalAddressList(): BlockList {
  const list = new BlockList();
  list.addSubnet("127.0.0.0", 8, "ipv4"); // loopback
  list.addSubnet("10.0.0.0", 8, "ipv4");
  list.addSubnet("172.16.0.0", 12, "ipv4");
  list.addSubnet("192.168.0.0", 16, "ipv4");
  list.addSubnet("169.254.0.0", 16, "ipv4"); // link-local
  list.addAddress("0.0.0.0", "ipv4"); // unspecified: connecting to it reaches this machine
  list.addAddress("::1", "ipv6"); // loopback
  list.addAddress("::", "ipv6");
  list.addSubnet("fc00::", 7, "ipv6"); // unique local
  list.addSubnet("fe80::", 10, "ipv6"); // link-local
  return list;
}
