export { COUNT_TOKENS_PATH, MESSAGES_PATH, unroutedErrorBody } from "./anthropic-error.js";
export { createMessagesRoutes } from "./messages-routes.js";
