import type { SearchCandidate } from "../../index.js";
import { collapseWhitespace, cutText } from "../../shared/text/index.js";

/** Longest description line in the text output of `search` (the JSON output keeps descriptions whole). */
const MAX_DESCRIPTION_LINE_CHARS = 180;

/** The text mode's answer to a search with no results. */
export const NO_MATCH_TEXT = "No tools match.";

/**
 * Renders candidates as a readable ranked list, as the model would see them: rank and id, the input (and
 * output) signature, and the description on one line. Control characters from tool metadata are replaced,
 * so a hostile description cannot drive the terminal.
 */
export function formatCandidates(candidates: readonly SearchCandidate[]): string {
  if (candidates.length === 0) return `${NO_MATCH_TEXT}\n`;
  const blocks = candidates.map((candidate, index) => {
    const lines = [
      `${index + 1}. ${terminalLine(candidate.id)}`,
      `   input:  ${terminalLine(candidate.input)}`,
    ];
    if (candidate.output !== undefined) lines.push(`   output: ${terminalLine(candidate.output)}`);
    const description = cutText(terminalLine(candidate.description), MAX_DESCRIPTION_LINE_CHARS);
    lines.push(`   ${description.length > 0 ? description : "No description."}`);
    return lines.join("\n");
  });
  return `${blocks.join("\n")}\n`;
}

/** One line of safe terminal text: C0/C1 controls and line separators become spaces, whitespace collapses. */
function terminalLine(text: string): string {
  return collapseWhitespace(text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu, " "));
}
