export { CONSOLE_PATH, CONSOLE_POSTS, CSRF_HEADER, isConsolePath, SESSION_COOKIE } from "./console-paths.js";
export { createConsoleRoutes } from "./create-console.js";
export { CONSOLE_CSP, CONSOLE_HEADERS } from "./security-headers.js";
export type {
  ConsoleBackend,
  ConsoleChat,
  ConsoleChatFrame,
  ConsoleOptions,
  ConsoleSessionQuery,
} from "./types.js";
