export { createResponsesRoutes, RESPONSES_PATH } from "./responses-routes.js";
