import { describe, expect, it } from "vitest";
import { createTestRuntime, echoTool } from "./controls.test-support.js";
import { createControlTools } from "./create-control-tools.js";
import { formGetsThrough, LOCAL_MODEL_LIMITS, WEAK_MODEL_FORMS } from "./weak-model-forms.test-support.js";

describe("weak and local model call forms (local-model limits 5/10)", () => {
  it.each(WEAK_MODEL_FORMS.map((form) => [form.label, form] as const))(
    "%s gets through",
    async (_label, form) => {
      expect(await formGetsThrough(form)).toBe(true);
    },
  );

  it("gets every form of the table through", async () => {
    let through = 0;
    for (const form of WEAK_MODEL_FORMS) if (await formGetsThrough(form)) through += 1;
    expect(through).toBe(WEAK_MODEL_FORMS.length);
  });

  it.each([
    ["args that are not JSON of an object", { id: "send_email", args: "to=a" }],
    ["args as JSON text of a list", { id: "send_email", args: '["a"]' }],
  ])("refuses %s, showing the right form", async (_label, request) => {
    const runtime = createTestRuntime([echoTool("send_email")], LOCAL_MODEL_LIMITS);
    const [, , call] = createControlTools(runtime);
    const result = await call?.execute(request, {});
    expect(result?.isError).toBe(true);
    const first = result?.content[0];
    expect(first?.type === "text" ? first.text : "").toMatch(
      /"id": "<tool id>", "args": \{ "city": "Oslo" \}/,
    );
    expect(runtime.executions).toEqual([]);
  });

  it("refuses a batch item that is neither a string nor an object", async () => {
    const runtime = createTestRuntime([echoTool("send_email")], LOCAL_MODEL_LIMITS);
    const [search] = createControlTools(runtime);
    const result = await search?.execute({ queries: ["send email", 7] }, {});
    expect(result?.isError).toBe(true);
    expect(runtime.searches).toEqual([]);
  });
});
