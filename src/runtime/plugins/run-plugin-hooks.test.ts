import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../core/catalog/index.js";
import type { BeforeToolCallResult, ToolCallEvent } from "../../core/execution/index.js";
import { pluginBeforeToolCall, runBeforePromptHooks, runBeforeToolCallHooks } from "./run-plugin-hooks.js";
import type { BeforePromptEvent, BeforePromptResult, BeforeToolCallEvent, PluginHook } from "./types.js";

type ToolHook = PluginHook<BeforeToolCallEvent, BeforeToolCallResult>;
type PromptHook = PluginHook<BeforePromptEvent, BeforePromptResult>;

const EVENT: BeforeToolCallEvent = {
  toolName: "weather_now",
  toolId: "native:weather:weather_now",
  source: "native",
  args: { city: "paris" },
  agentId: "main",
  sessionKey: "s1",
};

function hook(pluginId: string, handler: ToolHook["handler"]): ToolHook {
  return { pluginId, handler };
}

describe("runBeforeToolCallHooks", () => {
  it("returns undefined when no hook changes anything", async () => {
    expect(await runBeforeToolCallHooks([], EVENT)).toBeUndefined();
    expect(
      await runBeforeToolCallHooks([hook("a", () => undefined), hook("b", () => ({}))], EVENT),
    ).toBeUndefined();
  });

  it("composes rewrites in load order: each hook sees the arguments of the earlier ones", async () => {
    const seen: unknown[] = [];
    const result = await runBeforeToolCallHooks(
      [
        hook("first", (event) => {
          seen.push(event.args);
          return { params: { city: "Paris" } };
        }),
        hook("second", (event) => {
          seen.push(event.args);
          return { params: { ...(event.args as object), units: "c" } };
        }),
        hook("third", async (event) => {
          seen.push(event.args);
          return undefined;
        }),
      ],
      EVENT,
    );
    expect(seen).toEqual([{ city: "paris" }, { city: "Paris" }, { city: "Paris", units: "c" }]);
    expect(result).toEqual({ params: { city: "Paris", units: "c" } });
  });

  it("hands each hook the call's tool, source, agent and session", async () => {
    let seen: BeforeToolCallEvent | undefined;
    await runBeforeToolCallHooks(
      [
        hook("a", (event) => {
          seen = event;
          return undefined;
        }),
      ],
      EVENT,
    );
    expect(seen).toEqual(EVENT);
  });

  it("lets the first block win and runs no later hook", async () => {
    const ran: string[] = [];
    const result = await runBeforeToolCallHooks(
      [
        hook("a", () => {
          ran.push("a");
          return { params: { city: "Lyon" } };
        }),
        hook("b", () => {
          ran.push("b");
          return { block: "weather is closed today" };
        }),
        hook("c", () => {
          ran.push("c");
          return { block: "too late" };
        }),
      ],
      EVENT,
    );
    expect(result).toEqual({ block: "weather is closed today" });
    expect(ran).toEqual(["a", "b"]);
  });

  it("names the plugin when a block gives no reason", async () => {
    expect(await runBeforeToolCallHooks([hook("guard", () => ({ block: "" }))], EVENT)).toEqual({
      block: 'blocked by plugin "guard"',
    });
    expect(await runBeforeToolCallHooks([hook("guard", () => ({ block: true }) as never)], EVENT)).toEqual({
      block: 'blocked by plugin "guard"',
    });
  });

  it("fails closed: a throwing, rejecting or late hook blocks the call naming the plugin, and is reported", async () => {
    const reports: Array<{ pluginId: string; message: string }> = [];
    const options = {
      timeoutMs: 50,
      onHookError: (report: { pluginId: string; message: string }) => reports.push(report),
    };
    const ran: string[] = [];
    const after = hook("after", () => {
      ran.push("after");
      return undefined;
    });
    const throwing = await runBeforeToolCallHooks(
      [
        hook("broken", () => {
          throw new Error("database down");
        }),
        after,
      ],
      EVENT,
      options,
    );
    const rejecting = await runBeforeToolCallHooks(
      [hook("async-broken", async () => Promise.reject(new Error("nope"))), after],
      EVENT,
      options,
    );
    const late = await runBeforeToolCallHooks(
      [hook("stuck", () => new Promise(() => {})), after],
      EVENT,
      options,
    );
    expect(throwing).toEqual({ block: 'before_tool_call hook of plugin "broken" failed: database down' });
    expect(rejecting).toEqual({ block: 'before_tool_call hook of plugin "async-broken" failed: nope' });
    expect(late).toEqual({
      block: 'before_tool_call hook of plugin "stuck" failed: did not answer within 50 ms',
    });
    expect(ran).toEqual([]);
    expect(reports.map((report) => report.pluginId)).toEqual(["broken", "async-broken", "stuck"]);
  });

  it("ignores changes a hook makes to the arguments in place", async () => {
    const args = { city: "paris", nested: { n: 1 } };
    const result = await runBeforeToolCallHooks(
      [
        hook("mutator", (event) => {
          (event.args as { city: string }).city = "HACKED";
          (event.args as { nested: { n: number } }).nested.n = 2;
          return undefined;
        }),
      ],
      { ...EVENT, args },
    );
    expect(result).toBeUndefined();
    expect(args).toEqual({ city: "paris", nested: { n: 1 } });
  });

  it("treats answers that are not objects as no change", async () => {
    const result = await runBeforeToolCallHooks(
      [
        hook("odd", () => "block" as never),
        hook("odd2", () => 5 as never),
        hook("odd3", () => ({ params: undefined })),
      ],
      EVENT,
    );
    expect(result).toBeUndefined();
  });
});

describe("pluginBeforeToolCall", () => {
  it("maps an executor event to the plugin event with the run's agent and session", async () => {
    let seen: BeforeToolCallEvent | undefined;
    const step = pluginBeforeToolCall(
      [
        hook("p", (event) => {
          seen = event;
          return { params: { rewritten: true } };
        }),
      ],
      { agentId: "helper", sessionKey: "k" },
    );
    const entry = { id: "mcp:cal:list_events", name: "list_events", source: "mcp" } as CatalogEntry;
    const event = { entry, args: { day: 1 }, surface: "control" } as ToolCallEvent;
    expect(await step(event)).toEqual({ params: { rewritten: true } });
    expect(seen).toEqual({
      toolName: "list_events",
      toolId: "mcp:cal:list_events",
      source: "mcp",
      args: { day: 1 },
      agentId: "helper",
      sessionKey: "k",
    });
  });
});

describe("runBeforePromptHooks", () => {
  const PROMPT: BeforePromptEvent = {
    agentId: "main",
    sessionKey: "s",
    input: "what is the weather?",
    tools: [
      { id: "native:core:read", name: "read" },
      { id: "native:weather:weather_now", name: "weather_now" },
    ],
  };
  const prompt = (pluginId: string, handler: PromptHook["handler"]): PromptHook => ({ pluginId, handler });

  it("returns undefined when no hook narrows the surface", async () => {
    expect(await runBeforePromptHooks([], PROMPT)).toBeUndefined();
    expect(
      await runBeforePromptHooks([prompt("a", () => undefined), prompt("b", () => ({}))], PROMPT),
    ).toBeUndefined();
  });

  it("intersects every returned toolsAllow, in the first list's order, without repeats", async () => {
    const result = await runBeforePromptHooks(
      [
        prompt("a", () => ({ toolsAllow: ["weather_now", "read", "exec", "read"] })),
        prompt("b", () => undefined),
        prompt("c", async () => ({ toolsAllow: ["read", "weather_now", "write"] })),
        prompt("d", () => ({ toolsAllow: ["weather_now", "read"] })),
      ],
      PROMPT,
    );
    expect(result).toEqual(["weather_now", "read"]);
  });

  it("returns an empty list when the lists share nothing", async () => {
    const result = await runBeforePromptHooks(
      [prompt("a", () => ({ toolsAllow: ["read"] })), prompt("b", () => ({ toolsAllow: ["exec"] }))],
      PROMPT,
    );
    expect(result).toEqual([]);
  });

  it("reports and ignores hooks that throw, time out or answer nonsense", async () => {
    const reports: Array<{ pluginId: string; message: string }> = [];
    const result = await runBeforePromptHooks(
      [
        prompt("broken", () => {
          throw new Error("boom");
        }),
        prompt("stuck", () => new Promise(() => {})),
        prompt("nonsense", () => ({ toolsAllow: "read" }) as never),
        prompt("mixed", () => ({ toolsAllow: ["read", 5] }) as never),
        prompt("good", () => ({ toolsAllow: ["read"] })),
      ],
      PROMPT,
      { timeoutMs: 50, onHookError: (report) => reports.push(report) },
    );
    expect(result).toEqual(["read"]);
    expect(reports.map((report) => report.pluginId)).toEqual(["broken", "stuck", "nonsense", "mixed"]);
    expect(reports[0]!.message).toContain("boom");
  });

  it("gives hooks a copy of the event", async () => {
    const event = structuredClone(PROMPT);
    await runBeforePromptHooks(
      [
        prompt("mutator", (seen) => {
          seen.tools.length = 0;
          seen.input = "changed";
          return undefined;
        }),
      ],
      event,
    );
    expect(event).toEqual(PROMPT);
  });
});
