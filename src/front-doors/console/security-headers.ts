import type { MiddlewareHandler } from "hono";

/**
 * The console's Content-Security-Policy: its own script, style and images only, no inline code, no plugins,
 * no `<base>`, forms posting only to itself, and never framed (clickjacking).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers every console response carries, refusals and 404s included. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};

/** Middleware: sets `CONSOLE_HEADERS` on the response, whatever the route answered or threw. */
export function consoleHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(CONSOLE_HEADERS)) c.res.headers.set(name, value);
  };
}
