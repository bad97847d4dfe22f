export { COUNT_TOKENS_PATH, MESSAGES_PATH, unroutedErrorBody } from "./messages-paths.js";
export { createMessagesRoutes } from "./messages-routes.js";
