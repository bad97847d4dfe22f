import { describe, expect, it } from "vitest";
import { buildPostings, entryFields } from "./build-postings.js";
import {
  BM25_K1,
  FIELD_COUNT,
  FIELD_DESCRIPTION,
  FIELD_LENGTH_NORMALISATION,
  FIELD_META,
  FIELD_NAME,
  FIELD_PARAMETERS,
  FIELD_WEIGHTS,
  NAME_COVERAGE_BONUS,
} from "./ranking-parameters.js";
import { entriesOf, entryOf, recordingSchema } from "./search.test-support.js";
import { tokenize } from "./tokenize.js";

describe("entryFields", () => {
  it("indexes name and label, description, native parameter text, and the id's source and owner", () => {
    const entry = entryOf({
      name: "get_forecast",
      label: "Forecast",
      description: "Daily weather",
      parameters: { type: "object", properties: { city: { type: "string", description: "City name" } } },
      origin: { kind: "plugin", owner: "weather" },
    });
    const fields = entryFields(entry);
    expect(fields).toHaveLength(FIELD_COUNT);
    expect(fields[FIELD_NAME]).toBe("get_forecast\nForecast");
    expect(fields[FIELD_DESCRIPTION]).toBe("Daily weather");
    expect(fields[FIELD_PARAMETERS]).toBe("city\nCity name");
    expect(fields[FIELD_META]).toBe("native\nweather");
  });

  it("never touches MCP or client schemas", () => {
    const log: string[] = [];
    const mcp = entryOf({
      name: "m",
      parameters: recordingSchema(log),
      origin: { kind: "mcp", owner: "s" },
    });
    const client = entryOf({
      name: "c",
      parameters: recordingSchema(log),
      origin: { kind: "client" },
    });
    expect(entryFields(mcp)[FIELD_PARAMETERS]).toBe("");
    expect(entryFields(client)[FIELD_PARAMETERS]).toBe("");
    buildPostings([mcp, client]);
    expect(log).toEqual([]);
  });
});

describe("buildPostings", () => {
  const entries = entriesOf(
    { name: "get_weather", description: "Weather forecast for a city" },
    { name: "send_email", description: "Send an email message" },
    { name: "weather_alerts", description: "Severe weather alerts and weather warnings" },
  );
  const postings = buildPostings(entries);

  const postingsOf = (term: string): Array<{ doc: number; weight: number }> => {
    const termId = postings.termIds.get(term)!;
    const list: Array<{ doc: number; weight: number }> = [];
    for (let at = postings.offsets[termId]!; at < postings.offsets[termId + 1]!; at += 1) {
      list.push({ doc: postings.docs[at]!, weight: postings.weights[at]! });
    }
    return list;
  };

  it("lists each term's documents in ascending order", () => {
    expect(postingsOf(tokenize("weather")[0]!).map((posting) => posting.doc)).toEqual([0, 2]);
    expect(postingsOf("send").map((posting) => posting.doc)).toEqual([1]);
  });

  it("stores the saturated BM25F weight (plus the name coverage bonus for a name part) and the BM25 idf", () => {
    const fieldTokens = entries.map((entry) => entryFields(entry).map((text) => tokenize(text)));
    const average = Array.from(
      { length: FIELD_COUNT },
      (_, field) => fieldTokens.reduce((sum, fields) => sum + fields[field]!.length, 0) / entries.length,
    );
    const weather = tokenize("weather")[0]!;
    for (const { doc, weight } of postingsOf(weather)) {
      let frequency = 0;
      for (let field = 0; field < FIELD_COUNT; field += 1) {
        const tokens = fieldTokens[doc]![field]!;
        const count = tokens.filter((token) => token === weather).length;
        const b = FIELD_LENGTH_NORMALISATION[field]!;
        const norm = average[field]! > 0 ? 1 - b + (b * tokens.length) / average[field]! : 1;
        frequency += (FIELD_WEIGHTS[field]! * count) / norm;
      }
      const nameParts = tokenize(entries[doc]!.name).slice(1);
      const idfTotal = nameParts.reduce((sum, part) => sum + postings.idf[postings.termIds.get(part)!]!, 0);
      const bonus = nameParts.includes(weather) ? NAME_COVERAGE_BONUS / idfTotal : 0;
      expect(weight).toBeCloseTo((frequency * (BM25_K1 + 1)) / (BM25_K1 + frequency) + bonus, 5);
    }
    const termId = postings.termIds.get(weather)!;
    expect(postings.idf[termId]).toBeCloseTo(Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)), 6);
  });

  it("gives every posting a positive weight and every term a positive idf", () => {
    expect(postings.weights.every((weight) => weight > 0)).toBe(true);
    expect(postings.idf.every((idf) => idf > 0)).toBe(true);
    expect(postings.offsets[postings.offsets.length - 1]).toBe(postings.docs.length);
  });

  it("builds an empty index", () => {
    const empty = buildPostings([]);
    expect(empty.termIds.size).toBe(0);
    expect(empty.docs).toHaveLength(0);
  });
});

describe("buildPostings with an empty field", () => {
  it("keeps every weight finite for a document whose name tokenises to nothing (name b = 1)", () => {
    expect(FIELD_LENGTH_NORMALISATION[FIELD_NAME]).toBe(1);
    const postings = buildPostings(
      entriesOf({ name: "a", description: "alpha" }, { name: "beta", description: "beta" }),
    );
    expect(postings.weights.every((weight) => Number.isFinite(weight) && weight > 0)).toBe(true);
  });
});

describe("buildPostings forward index", () => {
  it("lists, per document, exactly the terms whose postings hold that document", () => {
    const postings = buildPostings(
      entriesOf(
        { name: "get_forecast", description: "Daily weather forecast for a city" },
        { name: "send_email", description: "Send an email to a person" },
        { name: "read_file", description: "Read a file from disk" },
      ),
    );
    const fromPostings = new Set<string>();
    for (let term = 0; term + 1 < postings.offsets.length; term += 1) {
      for (let at = postings.offsets[term]!; at < postings.offsets[term + 1]!; at += 1) {
        fromPostings.add(`${postings.docs[at]}:${term}`);
      }
    }
    const fromDocuments = new Set<string>();
    for (let doc = 0; doc < 3; doc += 1) {
      for (let at = postings.documentStarts[doc]!; at < postings.documentStarts[doc + 1]!; at += 1) {
        fromDocuments.add(`${doc}:${postings.documentTerms[at]}`);
      }
    }
    expect(postings.documentTerms.length).toBe(postings.docs.length);
    expect(fromDocuments).toEqual(fromPostings);
  });
});
