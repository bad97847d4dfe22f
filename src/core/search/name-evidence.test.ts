import { describe, expect, it } from "vitest";
import { nameEvidenceShare, nameEvidenceShares, nameFieldWeight } from "./name-evidence.js";
import {
  FIELD_COUNT,
  FIELD_DESCRIPTION,
  FIELD_NAME,
  FIELD_WEIGHTS,
  NAME_EVIDENCE_FULL_RATIO,
  NAME_EVIDENCE_NONE_RATIO,
} from "./ranking-parameters.js";
import { entriesOf, namesOf } from "./search.test-support.js";
import { createSearchIndex } from "./search-index.js";

/** Text every card of the hub below shares, long enough to make its descriptions documents. */
const BOILERPLATE = Array.from(
  { length: 24 },
  (_, line) => `Section ${line}: training details, evaluation results, framework versions and limitations.`,
).join("\n");

/** Two models: one whose name says `reader` (it reads scanned pages), one whose card is about reading text aloud. */
function hub(description: (card: string) => string) {
  return entriesOf(
    {
      name: "acme/page-reader",
      description: description("Optical character recognition of scanned pages."),
      origin: { kind: "mcp", owner: "hub" },
    },
    {
      name: "acme/voice-synth",
      description: description("Speech synthesis: turns written text into spoken audio, text in, audio out."),
      origin: { kind: "mcp", owner: "hub" },
    },
  );
}

describe("nameEvidenceShare", () => {
  it("is 1 up to the full ratio, 0 from the none ratio on, and falls with the log of the ratio in between", () => {
    expect(nameEvidenceShare(4, 4)).toBe(1);
    expect(nameEvidenceShare(NAME_EVIDENCE_FULL_RATIO * 3, 3)).toBe(1);
    expect(nameEvidenceShare(NAME_EVIDENCE_NONE_RATIO * 3, 3)).toBe(0);
    expect(nameEvidenceShare(1000, 2)).toBe(0);
    const middle = Math.sqrt(NAME_EVIDENCE_FULL_RATIO * NAME_EVIDENCE_NONE_RATIO);
    expect(nameEvidenceShare(middle, 1)).toBeCloseTo(0.5, 10);
  });

  it("keeps the whole share for tools described in a paragraph and for one-line descriptions", () => {
    // A one-word name with a two-word label (3 terms) and a paragraph of 32 terms, as toolsift's own core tools.
    expect(nameEvidenceShare(32, 3)).toBe(1);
    // The MCP-like benchmark servers: 1.4 to 3.9; Seal-Tools: 1.3.
    expect(nameEvidenceShare(4, 1)).toBe(1);
  });

  it("keeps the whole share for a server without name text", () => {
    expect(nameEvidenceShare(100, 0)).toBe(1);
    expect(nameEvidenceShare(0, 0)).toBe(1);
  });
});

describe("nameFieldWeight", () => {
  it("runs from the plain weight 1 at share 0 to the name's field weight at share 1", () => {
    expect(nameFieldWeight(0)).toBe(1);
    expect(nameFieldWeight(1)).toBe(FIELD_WEIGHTS[FIELD_NAME]);
  });
});

describe("nameEvidenceShares", () => {
  it("gives each document its server's share, from the server's summed lengths", () => {
    const lengths = new Float64Array(3 * FIELD_COUNT);
    // Server 0: names 3 and 3, descriptions 6 and 200 (ratio 206 / 6, over the none ratio).
    // Server 1: name 4, description 8 (ratio 2).
    const set = (doc: number, name: number, description: number) => {
      lengths[doc * FIELD_COUNT + FIELD_NAME] = name;
      lengths[doc * FIELD_COUNT + FIELD_DESCRIPTION] = description;
    };
    set(0, 3, 6);
    set(1, 4, 8);
    set(2, 3, 200);
    const shares = nameEvidenceShares(lengths, { serverOf: Uint32Array.from([0, 1, 0]), count: 2 });
    expect(Array.from(shares)).toEqual([0, 1, 0]);
  });
});

describe("name evidence in ranking", () => {
  it("lets a name part win when descriptions are lines, and the description when they are documents", () => {
    const short = createSearchIndex(hub((card) => card));
    expect(namesOf(short.search("read text aloud", 2))[0]).toBe("acme/page-reader");
    const long = createSearchIndex(hub((card) => `${card}\n${BOILERPLATE}`));
    expect(namesOf(long.search("read text aloud", 2))[0]).toBe("acme/voice-synth");
  });

  it("weighs names per server: a server of one-line descriptions keeps its names' weight beside a hub", () => {
    const tools = entriesOf(
      {
        name: "read_file",
        description: "Open a file and return its text.",
        origin: { kind: "mcp", owner: "fs" },
      },
      {
        name: "fetch_page",
        description: "Fetch a web page to read its text: the text of its body, its links and its title.",
        origin: { kind: "mcp", owner: "fs" },
      },
    );
    const alone = namesOf(createSearchIndex(tools).search("read the text", 2));
    const beside = namesOf(
      createSearchIndex([...tools, ...hub((card) => `${card}\n${BOILERPLATE}`)]).search("read the text", 4),
    ).filter((name) => !name.startsWith("acme/"));
    expect(alone[0]).toBe("read_file");
    expect(beside).toEqual(alone);
  });
});
