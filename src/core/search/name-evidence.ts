import {
  FIELD_COUNT,
  FIELD_DESCRIPTION,
  FIELD_NAME,
  FIELD_WEIGHTS,
  NAME_EVIDENCE_FULL_RATIO,
  NAME_EVIDENCE_NONE_RATIO,
} from "./ranking-parameters.js";
import type { Servers } from "./servers.js";

/**
 * The share of a name's extra evidence (its field weight above 1 and the name coverage bonus) that a server's
 * tools keep, from their summed description and name lengths: 1 while the descriptions are at most
 * `NAME_EVIDENCE_FULL_RATIO` times longer than the names, 0 from `NAME_EVIDENCE_NONE_RATIO` on, and in between
 * falling linearly in the logarithm of the ratio. A server without name text keeps 1.
 */
export function nameEvidenceShare(descriptionLength: number, nameLength: number): number {
  if (!(nameLength > 0)) return 1;
  const ratio = descriptionLength / nameLength;
  if (ratio <= NAME_EVIDENCE_FULL_RATIO) return 1;
  if (ratio >= NAME_EVIDENCE_NONE_RATIO) return 0;
  return (
    Math.log(NAME_EVIDENCE_NONE_RATIO / ratio) / Math.log(NAME_EVIDENCE_NONE_RATIO / NAME_EVIDENCE_FULL_RATIO)
  );
}

/**
 * Per document, its server's share of name evidence (`nameEvidenceShare` of the server's summed field lengths).
 * `fieldLengths` holds `FIELD_COUNT` lengths a document, in document order.
 */
export function nameEvidenceShares(fieldLengths: Float64Array, servers: Servers): Float64Array {
  const { serverOf, count } = servers;
  const descriptionLengths = new Float64Array(count);
  const nameLengths = new Float64Array(count);
  for (let doc = 0; doc < serverOf.length; doc += 1) {
    const server = serverOf[doc]!;
    descriptionLengths[server]! += fieldLengths[doc * FIELD_COUNT + FIELD_DESCRIPTION]!;
    nameLengths[server]! += fieldLengths[doc * FIELD_COUNT + FIELD_NAME]!;
  }
  const serverShares = new Float64Array(count);
  for (let server = 0; server < count; server += 1)
    serverShares[server] = nameEvidenceShare(descriptionLengths[server]!, nameLengths[server]!);
  const shares = new Float64Array(serverOf.length);
  for (let doc = 0; doc < serverOf.length; doc += 1) shares[doc] = serverShares[serverOf[doc]!]!;
  return shares;
}

/** The name field's BM25F weight for a share of name evidence: `FIELD_WEIGHTS[FIELD_NAME]` at 1, plain 1 at 0. */
export function nameFieldWeight(share: number): number {
  return 1 + (FIELD_WEIGHTS[FIELD_NAME]! - 1) * share;
}
