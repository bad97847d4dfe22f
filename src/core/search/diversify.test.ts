import { describe, expect, it } from "vitest";
import { buildPostings } from "./build-postings.js";
import { createDiversifier, type DiversifyOptions } from "./diversify.js";
import { DIVERSITY_PENALTY, DIVERSITY_WINDOW } from "./ranking-parameters.js";
import { entriesOf } from "./search.test-support.js";
import { createSearchIndex } from "./search-index.js";

/** Documents 0-2 match `calendar event`, document 3 `post channel`, document 4 `issue`; 5+ match `calendar`. */
function fixture(extraCalendarTools = 0) {
  const entries = entriesOf(
    { name: "create_event", description: "Create a calendar event." },
    { name: "update_event", description: "Update a calendar event." },
    { name: "delete_event", description: "Delete a calendar event." },
    { name: "post_message", description: "Post a message to a channel." },
    { name: "search_issues", description: "Search issues by keywords." },
    ...Array.from({ length: extraCalendarTools }, (_, index) => ({
      name: `calendar_tool_${index}`,
      description: "Works on a calendar.",
    })),
  );
  const postings = buildPostings(entries);
  const termId = (term: string) => postings.termIds.get(term)!;
  const typedTerms = ["calendar", "event", "post", "channel", "issu"].map(termId);
  const diversifier = createDiversifier(postings);
  const diversify = (options: DiversifyOptions) => diversifier.diversify(options);
  return { entries, diversify, typedTerms };
}

describe("diversify", () => {
  it("moves a candidate with new query terms above variants whose terms are all covered", () => {
    const { diversify, typedTerms } = fixture();
    const scores = new Float64Array([10, 9, 8, 6, 5]);
    const ranked = [0, 1, 2, 3, 4];
    const order = diversify({ ranked, wanted: 5, scores, typedTerms });
    // Once 0 has covered `calendar event`, 1 and 2 are worth 9 · 0.5 and 8 · 0.5: below 3 (6) and 4 (5).
    expect(DIVERSITY_PENALTY).toBe(0.5);
    expect(order).toEqual([0, 3, 4, 1, 2]);
  });

  it("keeps a covered candidate first when its discounted score still beats the new ones", () => {
    const { diversify, typedTerms } = fixture();
    const scores = new Float64Array([10, 9, 8, 4, 3]);
    expect(diversify({ ranked: [0, 1, 2, 3, 4], wanted: 5, scores, typedTerms })).toEqual([0, 1, 2, 3, 4]);
  });

  it("returns a prefix of the longer result for a smaller limit, and never more than asked", () => {
    const { diversify, typedTerms } = fixture();
    const scores = new Float64Array([10, 9, 8, 6, 4]);
    const full = diversify({ ranked: [0, 1, 2, 3, 4], wanted: 5, scores, typedTerms });
    for (let wanted = 1; wanted <= 5; wanted += 1) {
      expect(diversify({ ranked: [0, 1, 2, 3, 4], wanted, scores, typedTerms })).toEqual(
        full.slice(0, wanted),
      );
    }
  });

  it("leaves the order alone for one typed term, or two candidates", () => {
    const { diversify, typedTerms } = fixture();
    const scores = new Float64Array([10, 9, 8, 6, 4]);
    expect(diversify({ ranked: [0, 1, 2, 3], wanted: 4, scores, typedTerms: [typedTerms[0]!] })).toEqual([
      0, 1, 2, 3,
    ]);
    expect(diversify({ ranked: [0, 1], wanted: 2, scores, typedTerms })).toEqual([0, 1]);
  });

  it("reorders only the first DIVERSITY_WINDOW candidates; the rest follow by score", () => {
    const { diversify, typedTerms } = fixture(DIVERSITY_WINDOW);
    const count = DIVERSITY_WINDOW + 5;
    // Best first: the calendar tools (5..), then the event tools, then post_message and search_issues last.
    const ranked = [...Array.from({ length: DIVERSITY_WINDOW }, (_, index) => 5 + index), 0, 1, 2, 3, 4];
    const scores = new Float64Array(count);
    ranked.forEach((doc, position) => {
      scores[doc] = count - position;
    });
    const order = diversify({ ranked, wanted: count, scores, typedTerms });
    expect(order.slice(DIVERSITY_WINDOW)).toEqual([0, 1, 2, 3, 4]);
    expect([...order.slice(0, DIVERSITY_WINDOW)].sort((left, right) => left - right)).toEqual(
      ranked.slice(0, DIVERSITY_WINDOW),
    );
  });
});

describe("search with diversity", () => {
  it("surfaces one tool per intent of a one-sentence request before same-scored variants of the first", () => {
    const tool = (owner: string, name: string, description: string) => ({
      name,
      description,
      origin: { kind: "plugin" as const, owner },
    });
    const index = createSearchIndex(
      entriesOf(
        tool("a", "archive_channel", "Archive a channel."),
        tool("b", "archive_channel", "Archive a channel."),
        tool("c", "archive_channel", "Archive a channel."),
        tool("files", "read_file", "Read a file."),
        tool("files", "read_mail", "Read a mail."),
        tool("files", "read_feed", "Read a feed."),
        tool("files", "write_file", "Write a file."),
        tool("files", "copy_file", "Copy a file."),
      ),
    );
    // The three archive_channel tools score alike and above read_file; by score alone they would fill the top 3.
    expect(index.search("archive the channel and read the file", 3).map((entry) => entry.id)).toEqual([
      "native:a:archive_channel",
      "native:files:read_file",
      "native:b:archive_channel",
    ]);
  });
});
