import { cutText, cutTextLength } from "../../shared/text/index.js";
import { type DirectoryRow, selectRows } from "./directory-rows.js";
import {
  DIRECTORY_EMPTY,
  DIRECTORY_FOOTER,
  DIRECTORY_HEADING,
  DIRECTORY_INTRO,
  omittedLine,
  UNTRUSTED_TOOLS_LINE,
} from "./directory-text.js";
import type { DirectoryOptions } from "./types.js";

/** Description lengths tried, in order, when the full directory is over budget (then names only). */
const DIRECTORY_DESCRIPTION_CUTS: readonly number[] = Object.freeze([180, 64]);

/** How descriptions are shown: in full, cut to a number of characters, or not at all (names only). */
type DescriptionLevel = { kind: "full" } | { kind: "cut"; max: number } | { kind: "none" };

const LEVELS: readonly DescriptionLevel[] = [
  { kind: "full" },
  ...DIRECTORY_DESCRIPTION_CUTS.map((max): DescriptionLevel => ({ kind: "cut", max })),
  { kind: "none" },
];

/**
 * The prompt directory text (starting with the heading line `### Deferred Tool Schemas`), deterministic for
 * equal inputs. Over budget, descriptions shrink to 180 characters, then 64, then rows become names only;
 * only then are rows dropped from the end and counted in `N additional tools omitted.`. Lengths are
 * computed before any text is built, so rendering stays linear in the catalog size.
 */
export function renderDirectory(options: DirectoryOptions): string {
  const budget = Number.isNaN(options.budget) ? 0 : Math.max(0, Math.floor(options.budget));
  const { rows, unlisted, hasUntrusted, hasDeferred } = selectRows(options.entries, options.visibleNames);
  const footer = options.mode === "directory" ? DIRECTORY_FOOTER.directory : DIRECTORY_FOOTER.tools;
  const tail = [...(hasUntrusted ? [UNTRUSTED_TOOLS_LINE] : []), ...(hasDeferred ? footer : [])];

  const frame = frameLines(rows.length, unlisted, tail);
  for (const level of LEVELS) {
    let total = joinedLength(frame) + rows.length;
    for (const row of rows) total += rowLength(row, level);
    if (total <= budget) {
      return assemble(
        frame,
        rows.map((row) => rowText(row, level)),
      );
    }
  }

  // Names only, dropping rows from the end: the longest prefix that fits with its omitted line. The frame
  // length is the same for every prefix except for the digits of the omitted count.
  const droppedFrame = frameLines(1, 1, tail);
  const droppedFrameLength = joinedLength(droppedFrame) - omittedLine(1).length;
  let kept = rows.length;
  let rowsLength = rows.length; // the newline before each row
  for (const row of rows) rowsLength += row.head.length;
  while (kept > 0) {
    kept -= 1;
    rowsLength -= (rows[kept] as DirectoryRow).head.length + 1;
    const omitted = unlisted + rows.length - kept;
    if (droppedFrameLength + omittedLine(omitted).length + rowsLength <= budget) {
      return assemble(
        frameLines(kept, omitted, tail),
        rows.slice(0, kept).map((row) => row.head),
      );
    }
  }

  // Not even the frame fits: drop the footer, then the untrusted line, then everything but the heading.
  const omitted = unlisted + rows.length;
  for (const reducedTail of [tail.filter((line) => line === UNTRUSTED_TOOLS_LINE), []]) {
    const frame = frameLines(0, omitted, reducedTail);
    if (joinedLength(frame) <= budget) return assemble(frame, []);
  }
  return DIRECTORY_HEADING.length <= budget ? DIRECTORY_HEADING : "";
}

/** The lines around the rows: the heading and intro before them, the omitted line and the tail after them. */
interface Frame {
  readonly before: readonly string[];
  readonly after: readonly string[];
}

function frameLines(listed: number, omitted: number, tail: readonly string[]): Frame {
  const intro = listed > 0 || omitted > 0 ? DIRECTORY_INTRO : DIRECTORY_EMPTY;
  return {
    before: [DIRECTORY_HEADING, intro],
    after: [...(omitted > 0 ? [omittedLine(omitted)] : []), ...tail],
  };
}

/** Length of the frame's lines joined with newlines, counting the newline between the frame and each row. */
function joinedLength(frame: Frame): number {
  const lines = [...frame.before, ...frame.after];
  return sumLengths(lines) + lines.length - 1;
}

function assemble(frame: Frame, rows: readonly string[]): string {
  return [...frame.before, ...rows, ...frame.after].join("\n");
}

function rowText(row: DirectoryRow, level: DescriptionLevel): string {
  if (level.kind === "none") return row.head;
  const description = level.kind === "cut" ? cutText(row.description, level.max) : row.description;
  return `${row.head}: ${description}`;
}

/** The length `rowText` would have, computed without building it. */
function rowLength(row: DirectoryRow, level: DescriptionLevel): number {
  if (level.kind === "none") return row.head.length;
  const description =
    level.kind === "cut" ? cutTextLength(row.description, level.max) : row.description.length;
  return row.head.length + 2 + description;
}

function sumLengths(lines: readonly string[]): number {
  let total = 0;
  for (const line of lines) total += line.length;
  return total;
}
