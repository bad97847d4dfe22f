import { describe, expect, it } from "vitest";
import { type InstallLocation, installCommand } from "./install-command.js";

const OPENAI = { name: "openai", version: "6.49.0" };
const ANTHROPIC = { name: "@anthropic-ai/sdk", version: "1.15.0" };
const context = { cwd: "/home/ada/project", args: ["gateway", "--config", "my config.json5"] };

describe("installCommand: the one command that makes a package loadable by this toolsift", () => {
  const cases: Array<[string, InstallLocation, string]> = [
    [
      "a project, from its folder",
      { kind: "project", root: "/home/ada/project" },
      "npm install openai@6.49.0",
    ],
    [
      "a project, from elsewhere",
      { kind: "project", root: "/srv/app" },
      "cd /srv/app && npm install openai@6.49.0",
    ],
    ["a global install", { kind: "global" }, "npm install -g openai@6.49.0"],
    [
      "npx's cache: the same command with the package beside toolsift",
      { kind: "npx" },
      "npx -p toolsift -p openai@6.49.0 toolsift gateway --config 'my config.json5'",
    ],
    ["a checkout, from its folder", { kind: "checkout", root: "/home/ada/project/" }, "npm install"],
  ];
  it.each(cases)("%s", (_name, location, expected) => {
    expect(installCommand([OPENAI], location, context)).toBe(expected);
  });

  it("names every package, scoped ones included", () => {
    expect(installCommand([ANTHROPIC, OPENAI], { kind: "global" }, context)).toBe(
      "npm install -g @anthropic-ai/sdk@1.15.0 openai@6.49.0",
    );
    expect(installCommand([ANTHROPIC], { kind: "npx" }, { cwd: "/", args: ["gateway"] })).toBe(
      "npx -p toolsift -p @anthropic-ai/sdk@1.15.0 toolsift gateway",
    );
  });

  it("quotes a path or argument the shell would split or expand", () => {
    expect(installCommand([OPENAI], { kind: "project", root: "/tmp/it's here" }, context)).toBe(
      "cd '/tmp/it'\\''s here' && npm install openai@6.49.0",
    );
    expect(installCommand([OPENAI], { kind: "npx" }, { cwd: "/", args: ["search", "$HOME *"] })).toBe(
      "npx -p toolsift -p openai@6.49.0 toolsift search '$HOME *'",
    );
  });
});
