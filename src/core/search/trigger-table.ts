import { wordTerms } from "./tokenize.js";

/** A group of words a query can fire: its triggers, and the words it adds to the query. */
export type TriggeredGroup = {
  /** Lowercase words (tokenised like a query, so stemmed) or two-word phrases (consecutive query words). */
  readonly triggers: readonly string[];
  /** Words added to the query (tokenised like a query). */
  readonly adds: readonly string[];
};

/** Groups indexed by trigger: group numbers by trigger term and by two-word phrase, and each group's terms. */
export type TriggerTable = {
  readonly byTerm: ReadonlyMap<string, readonly number[]>;
  readonly byPhrase: ReadonlyMap<string, readonly number[]>;
  /** First words of the phrases, to skip building pairs that cannot match. */
  readonly phraseStarts: ReadonlySet<string>;
  /** Lengths of those first words: a word of another length is skipped without lowercasing it. */
  readonly phraseStartLengths: ReadonlySet<number>;
  /** Per group: the terms it adds. */
  readonly adds: readonly (readonly string[])[];
};

/** Indexes `groups` by their triggers (group numbers are positions in `groups`). */
export function compileTriggers(groups: readonly TriggeredGroup[]): TriggerTable {
  const byTerm = new Map<string, number[]>();
  const byPhrase = new Map<string, number[]>();
  const phraseStarts = new Set<string>();
  const add = (map: Map<string, number[]>, key: string, group: number): void => {
    const list = map.get(key);
    if (!list) map.set(key, [group]);
    else if (!list.includes(group)) list.push(group);
  };
  groups.forEach((group, index) => {
    for (const trigger of group.triggers) {
      const words = trigger.toLowerCase().split(" ");
      if (words.length === 2) {
        add(byPhrase, words.join(" "), index);
        phraseStarts.add(words[0]!);
      } else {
        for (const term of wordTerms(trigger)) add(byTerm, term, index);
      }
    }
  });
  const phraseStartLengths = new Set([...phraseStarts].map((word) => word.length));
  const adds = groups.map((group) => [...new Set(group.adds.flatMap(wordTerms))]);
  return { byTerm, byPhrase, phraseStarts, phraseStartLengths, adds };
}
