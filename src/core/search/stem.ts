/** Words ending in `s` that are not plurals (the `-ss`, `-us` and `-is` endings are handled by rule). */
const NOT_PLURAL: ReadonlySet<string> = new Set([
  "alias",
  "always",
  "atlas",
  "bias",
  "canvas",
  "chaos",
  "christmas",
  "gas",
  "lens",
  "news",
  "perhaps",
  "series",
  "species",
  "texas",
  "whereas",
]);

const ASCII_WORD = /^[a-z]+$/;

/**
 * A light, rule-based English stemmer used on documents and queries alike (deterministic, no dictionary):
 * plurals, then `-ing`/`-ed`, then `-er`, undoubling a final consonant after a strip (not `l`, `s`, `z`),
 * then `y`→`i` and a dropped final `e`, so `scheduling`/`schedule`, `running`/`runner`/`run`,
 * `reminders`/`remind`, `policies`/`policy` and `cookies`/`cookie` meet. Only plain `a-z` words are stemmed.
 */
export function stem(word: string): string {
  if (word.length <= 2 || !ASCII_WORD.test(word) || NOT_PLURAL.has(word)) return word;
  let current = stripPlural(word);
  const afterVerb = stripVerbSuffix(current);
  if (afterVerb !== current) current = undouble(afterVerb);
  const afterAgent = stripAgentSuffix(current);
  if (afterAgent !== current) current = undouble(afterAgent);
  return normaliseEnding(current);
}

function stripPlural(word: string): string {
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ies") && word.length >= 4) return `${word.slice(0, -3)}i`;
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function stripVerbSuffix(word: string): string {
  if (word.endsWith("ied") && word.length >= 4) return `${word.slice(0, -3)}i`;
  if (word.endsWith("eed")) return word;
  for (const suffix of ["ing", "ed"]) {
    if (!word.endsWith(suffix)) continue;
    const base = word.slice(0, -suffix.length);
    return base.length >= 2 && hasVowel(base) ? base : word;
  }
  return word;
}

function stripAgentSuffix(word: string): string {
  if (!word.endsWith("er")) return word;
  const base = word.slice(0, -2);
  return base.length >= 4 && hasVowel(base) ? base : word;
}

/** `runn` → `run`, `stopp` → `stop`; `call`, `process`, `buzz` and `add` keep their double letter. */
function undouble(word: string): string {
  const length = word.length;
  if (length < 4) return word;
  const last = word.charAt(length - 1);
  if (last !== word.charAt(length - 2) || "lszaeiouy".includes(last)) return word;
  const beforeDouble = word.charAt(length - 3);
  const beforeVowel = word.charAt(length - 4);
  return isVowel(beforeDouble) && !isVowel(beforeVowel) ? word.slice(0, -1) : word;
}

/** `policy`/`policie` → `polici`, `schedule` → `schedul`; `free` and `employee` keep their `ee`. */
function normaliseEnding(word: string): string {
  const length = word.length;
  if (length >= 3 && word.endsWith("y") && !isVowel(word.charAt(length - 2))) return `${word.slice(0, -1)}i`;
  if (length >= 3 && word.endsWith("e") && !word.endsWith("ee")) return word.slice(0, -1);
  return word;
}

function hasVowel(word: string): boolean {
  for (let index = 0; index < word.length; index += 1) {
    const char = word.charAt(index);
    if (isVowel(char) || (char === "y" && index > 0)) return true;
  }
  return false;
}

function isVowel(char: string): boolean {
  return char === "a" || char === "e" || char === "i" || char === "o" || char === "u";
}
