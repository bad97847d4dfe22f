export { LONGEST_SHOWN_VALUE } from "../../shared/text/index.js";

/** Prefix of the probe file doctor creates, and removes at once, to test that the state directory is writable. */
export const STATE_PROBE_PREFIX = ".toolsift-doctor-probe-";

/** Width of the status column in the text report. */
export const STATUS_COLUMN_WIDTH = 6;

/** Most tool names listed for one loaded plugin; the rest are counted. */
export const MAX_LISTED_PLUGIN_TOOLS = 10;
