import { expect, test } from "vitest";
import { resultText } from "./result-text.js";

test("a tool result's text blocks are joined; images are named, not sent; junk content gives nothing", () => {
  expect(
    resultText({
      content: [
        { type: "text", text: "one" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "two" },
      ],
    }),
  ).toBe("one\n[image: image/png]\ntwo");
  expect(resultText({ content: "nope" } as never)).toBe("");
  expect(resultText(undefined as never)).toBe("");
});
