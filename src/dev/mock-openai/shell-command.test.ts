import { describe, expect, it } from "vitest";
import { readCommand, withCommand } from "./shell-command.js";

describe("readCommand", () => {
  it.each([
    ["target=Bash cmd=echo hi", "echo hi"],
    ["target=Bash cmd=  echo hi  \nmore text", "echo hi"],
    ["cmd=`ls -la`", "ls -la"],
    ['x cmd="echo a b"', "echo a b"],
    ["x cmd='echo'", "echo"],
    ['x cmd=`a"', '`a"'],
  ])("reads %j as %j", (text, command) => {
    expect(readCommand(text).command).toBe(command);
  });

  it.each(["no command here", "x cmd=", "x cmd=   ", "xcmd=echo"])("finds no command in %j", (text) => {
    expect(readCommand(text).command).toBeUndefined();
  });

  it("gives the text before cmd= for the targets", () => {
    expect(readCommand("target=Bash and=Read cmd=echo and=x").before).toBe("target=Bash and=Read");
  });
});

describe("withCommand", () => {
  it("fills cmd or command, whichever the arguments or the schema have, else command", () => {
    expect(withCommand({ cmd: "qa" }, "ls")).toEqual({ cmd: "ls" });
    expect(withCommand({ command: "qa", timeout: 1 }, "ls")).toEqual({ command: "ls", timeout: 1 });
    expect(withCommand({}, "ls", { properties: { cmd: { type: "string" } } })).toEqual({ cmd: "ls" });
    expect(withCommand({}, "ls", { properties: {} })).toEqual({ command: "ls" });
    expect(withCommand({}, "ls")).toEqual({ command: "ls" });
  });
});
