import { expect, test } from "vitest";
import { buildSystemPrompt } from "./system-prompt.js";

const DIRECTORY = "### Deferred Tool Schemas\nAvailable deferred-schema tools:\n- a (p): A.";

test("the prompt is the base instructions, then the directory, then the client's instructions", () => {
  expect(
    buildSystemPrompt({
      baseInstructions: "  Base.\n",
      directory: DIRECTORY,
      clientInstructions: " Be brief. ",
    }),
  ).toBe(`Base.\n\n${DIRECTORY}\n\nBe brief.`);
});

test("the prefix does not depend on the client's instructions", () => {
  const prefix = buildSystemPrompt({
    baseInstructions: "Base.",
    directory: DIRECTORY,
    clientInstructions: undefined,
  });
  for (const clientInstructions of ["One.", "Two, longer.", "   "]) {
    const prompt = buildSystemPrompt({ baseInstructions: "Base.", directory: DIRECTORY, clientInstructions });
    expect(prompt.startsWith(prefix)).toBe(true);
  }
  expect(
    buildSystemPrompt({ baseInstructions: "Base.", directory: DIRECTORY, clientInstructions: "   " }),
  ).toBe(prefix);
});

test("without a directory (Tool Search off) there is no directory section", () => {
  expect(
    buildSystemPrompt({ baseInstructions: "Base.", directory: undefined, clientInstructions: "X." }),
  ).toBe("Base.\n\nX.");
});
