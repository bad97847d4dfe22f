import type { SettingIssue } from "../../core/tool-search/index.js";

/** One problem found in a config value, as `path: message` (the shape Tool Search's settings reader uses). */
export type ConfigIssue = SettingIssue;
