import { describe, expect, it } from "vitest";
import { argumentPieces, STREAM_ARGUMENT_PIECE_CHARS, wordPieces } from "./stream-pieces.js";

describe("wordPieces", () => {
  it.each<[string, string[]]>([
    ["Done. sunny noon", ["Done. ", "sunny ", "noon"]],
    ["  lead and trail  ", ["  ", "lead ", "and ", "trail  "]],
    ["a\n\nb", ["a\n\n", "b"]],
    ["one", ["one"]],
    [" ", [" "]],
    ["", []],
    ["ünï 😀 ✓", ["ünï ", "😀 ", "✓"]],
  ])("%j → %j, joining back exactly", (text, pieces) => {
    expect(wordPieces(text)).toEqual(pieces);
    expect(wordPieces(text).join("")).toBe(text);
  });
});

describe("argumentPieces", () => {
  it("cuts every STREAM_ARGUMENT_PIECE_CHARS code points and joins back exactly", () => {
    const text = '{"city":"qa","note":"long enough to need three pieces"}';
    const pieces = argumentPieces(text);
    expect(pieces.join("")).toBe(text);
    expect(pieces.slice(0, -1).every((piece) => piece.length === STREAM_ARGUMENT_PIECE_CHARS)).toBe(true);
    expect(pieces.length).toBe(Math.ceil(text.length / STREAM_ARGUMENT_PIECE_CHARS));
  });

  it("never splits a surrogate pair, and has no piece for empty arguments", () => {
    const text = `{"e":"x${"😀".repeat(STREAM_ARGUMENT_PIECE_CHARS)}"}`;
    const pieces = argumentPieces(text);
    expect(pieces.join("")).toBe(text);
    for (const piece of pieces) expect(piece).toBe(piece.toWellFormed());
    expect(argumentPieces("")).toEqual([]);
  });
});
