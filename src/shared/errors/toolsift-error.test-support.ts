import { isToolsiftError, type ToolsiftError } from "./toolsift-error.js";

/** The ToolsiftError `run` rejects with: any other error is rethrown, and a run that settles fine fails. */
export async function refusal(run: () => Promise<unknown>): Promise<ToolsiftError> {
  try {
    await run();
  } catch (error) {
    if (isToolsiftError(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolsiftError, nothing was thrown");
}

/** The ToolsiftError `run` throws: any other error is rethrown, and a run that returns fails. */
export function thrown(run: () => unknown): ToolsiftError {
  try {
    run();
  } catch (error) {
    if (isToolsiftError(error)) return error;
    throw error;
  }
  throw new Error("expected a ToolsiftError, nothing was thrown");
}
