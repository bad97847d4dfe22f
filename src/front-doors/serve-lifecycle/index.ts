export { type FrontDoorTelemetry, startFrontDoorTelemetry } from "./start-front-door-telemetry.js";
