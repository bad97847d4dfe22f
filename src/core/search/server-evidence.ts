import type { CatalogEntry } from "../catalog/index.js";
import type { QueryTerm } from "./analyze-query.js";
import type { Postings } from "./build-postings.js";
import { SERVER_EVIDENCE_WEIGHT } from "./ranking-parameters.js";
import type { QueryScorer } from "./score-query.js";
import { numberServers } from "./servers.js";

/** Per term, the servers whose tools have it and their best posting weight (compressed rows, like postings). */
type ServerPostings = { offsets: Uint32Array; servers: Uint32Array; weights: Float32Array };

/**
 * Where-from evidence for catalogs of several servers (DESIGN.md, "Server evidence"): a server is scored as if
 * its tools were one document that has a typed query term when any of its tools has it (with its tools' best
 * posting weight), and each matched tool's score is multiplied by
 * `1 + SERVER_EVIDENCE_WEIGHT × server score / best server score`.
 */
export class ServerEvidence {
  private readonly serverOf: Uint32Array;
  private readonly serverScores: Float64Array;
  private serverPostings: ServerPostings | undefined;

  constructor(serverOf: Uint32Array, serverCount: number) {
    this.serverOf = serverOf;
    this.serverScores = new Float64Array(serverCount);
  }

  /** Rescales the scores of the documents `scorer` matched for `sentences` by their server's evidence. */
  apply(scorer: QueryScorer, sentences: readonly (readonly QueryTerm[])[], postings: Postings): void {
    this.serverPostings ??= buildServerPostings(postings, this.serverOf, this.serverScores.length);
    const { offsets, servers, weights } = this.serverPostings;
    const { serverScores, serverOf } = this;
    serverScores.fill(0);
    const seen = new Set<number>();
    for (const terms of sentences) {
      for (const term of terms) {
        // Typed words only: synonyms and expansions say less about where a request's tools live.
        if (!term.literal || term.weight < 1) continue;
        const termId = postings.termIds.get(term.term);
        if (termId === undefined || seen.has(termId)) continue;
        seen.add(termId);
        const termIdf = postings.idf[termId]!;
        for (let at = offsets[termId]!; at < offsets[termId + 1]!; at += 1) {
          const server = servers[at]!;
          serverScores[server] = serverScores[server]! + termIdf * weights[at]!;
        }
      }
    }
    let best = 0;
    for (const score of serverScores) if (score > best) best = score;
    if (best <= 0) return;
    const { touched, touchedCount, scores } = scorer;
    const scale = SERVER_EVIDENCE_WEIGHT / best;
    for (let index = 0; index < touchedCount; index += 1) {
      const doc = touched[index]!;
      scores[doc] = scores[doc]! * (1 + scale * serverScores[serverOf[doc]!]!);
    }
  }
}

/** One pass over the postings: per term, each server that has it once, with its tools' best weight. */
function buildServerPostings(postings: Postings, serverOf: Uint32Array, serverCount: number): ServerPostings {
  const termCount = postings.offsets.length - 1;
  const offsets = new Uint32Array(termCount + 1);
  const servers = new Uint32Array(postings.docs.length);
  const weights = new Float32Array(postings.docs.length);
  /** Per server: its slot in the current term's row, plus one (0: not in the row yet); reset per row. */
  const slotOf = new Uint32Array(serverCount);
  let length = 0;
  for (let term = 0; term < termCount; term += 1) {
    const rowStart = length;
    for (let posting = postings.offsets[term]!; posting < postings.offsets[term + 1]!; posting += 1) {
      const server = serverOf[postings.docs[posting]!]!;
      const weight = postings.weights[posting]!;
      const slot = slotOf[server]!;
      if (slot === 0) {
        servers[length] = server;
        weights[length] = weight;
        length += 1;
        slotOf[server] = length - rowStart;
      } else if (weight > weights[rowStart + slot - 1]!) {
        weights[rowStart + slot - 1] = weight;
      }
    }
    for (let at = rowStart; at < length; at += 1) slotOf[servers[at]!] = 0;
    offsets[term + 1] = length;
  }
  return { offsets, servers: servers.slice(0, length), weights: weights.slice(0, length) };
}

/**
 * The server evidence of `entries`, or `undefined` when they come from fewer than two servers (a server is a
 * source and owner: `mcp:github`, `native:core`), where it could not change any order.
 */
export function createServerEvidence(entries: readonly CatalogEntry[]): ServerEvidence | undefined {
  const { serverOf, count } = numberServers(entries);
  return count >= 2 ? new ServerEvidence(serverOf, count) : undefined;
}
