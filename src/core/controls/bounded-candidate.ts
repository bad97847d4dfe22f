import { cutText } from "../../shared/text/index.js";
import { MAX_MODEL_DESCRIPTION_CHARS, MAX_MODEL_LABEL_CHARS } from "./limits.js";
import type { SearchCandidate } from "./types.js";

/**
 * A candidate as a model-facing text shows it: label and description cut (with "...") to 512 and 8,192
 * characters. The catalog keeps tool metadata whole for the host (`details`); only the text is bounded.
 */
export function boundedCandidate<T extends SearchCandidate>(candidate: T): T {
  const label = candidate.label;
  const boundedLabel = label === undefined ? undefined : cutText(label, MAX_MODEL_LABEL_CHARS);
  const description = cutText(candidate.description, MAX_MODEL_DESCRIPTION_CHARS);
  if (boundedLabel === label && description === candidate.description) return candidate;
  return {
    ...candidate,
    ...(boundedLabel === undefined ? {} : { label: boundedLabel }),
    description,
  };
}
