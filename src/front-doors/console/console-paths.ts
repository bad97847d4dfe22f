/** Where the console is served. */
export const CONSOLE_PATH = "/console";

/** True for the console's paths (`/console` and everything under it), which the guard treats as own pages. */
export function isConsolePath(path: string): boolean {
  return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
}

/** The console's POST routes: each reads a JSON body (the guard refuses any other content type, 415). */
export const CONSOLE_POSTS: readonly string[] = [
  `${CONSOLE_PATH}/api/login`,
  `${CONSOLE_PATH}/api/logout`,
  `${CONSOLE_PATH}/api/approvals/:id`,
  `${CONSOLE_PATH}/api/chat`,
];

/** The pages (each the same shell; the script draws the one its path names). */
export const CONSOLE_PAGES: readonly string[] = [
  CONSOLE_PATH,
  `${CONSOLE_PATH}/`,
  `${CONSOLE_PATH}/login`,
  `${CONSOLE_PATH}/sessions`,
  `${CONSOLE_PATH}/session`,
  `${CONSOLE_PATH}/approvals`,
  `${CONSOLE_PATH}/tools`,
  `${CONSOLE_PATH}/health`,
  `${CONSOLE_PATH}/logs`,
  `${CONSOLE_PATH}/chat`,
];

/** The request header carrying the session's CSRF token on every console API request. */
export const CSRF_HEADER = "x-console-csrf";

/** The cookie holding the console session's id (never a token). */
export const SESSION_COOKIE = "toolsift_console";
