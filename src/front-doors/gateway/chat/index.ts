export { CHAT_COMPLETIONS_PATH, createChatRoutes } from "./chat-routes.js";
