import { randomHex } from "../../shared/ids/index.js";

/** A new opaque id with an OpenAI-style prefix (`resp`, `msg`, `fc`, `ctc`, `chatcmpl`). */
export function newId(prefix: "resp" | "msg" | "fc" | "ctc" | "chatcmpl"): string {
  const separator = prefix === "chatcmpl" ? "-" : "_";
  return `${prefix}${separator}${randomHex(12)}`;
}

/** Seconds since the epoch, as `created_at` / `created` fields carry it. */
export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
