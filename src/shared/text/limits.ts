/** Longest received key or value quoted in a message about bad input; longer ones are cut with "...". */
export const LONGEST_SHOWN_VALUE = 48;
