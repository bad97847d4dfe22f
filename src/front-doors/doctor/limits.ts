/** Most tool names listed for one loaded plugin; the rest are counted. */
export const MAX_LISTED_PLUGIN_TOOLS = 10;
