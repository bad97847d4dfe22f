import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfigPaths } from "./resolve-config-paths.js";

const home = path.resolve("/home/ada");

describe("resolveConfigPaths", () => {
  it("defaults: ~/.toolsift/toolsift.json and ~/.toolsift/state", () => {
    expect(resolveConfigPaths({ env: { HOME: home } })).toEqual({
      configPath: path.join(home, ".toolsift", "toolsift.json"),
      stateDir: path.join(home, ".toolsift", "state"),
      home: path.join(home, ".toolsift"),
      configSource: "default",
    });
  });

  it("TOOLSIFT_HOME moves both the config file and the state directory", () => {
    const paths = resolveConfigPaths({ env: { HOME: home, TOOLSIFT_HOME: "/srv/toolsift" } });
    expect(paths.home).toBe(path.resolve("/srv/toolsift"));
    expect(paths.configPath).toBe(path.resolve("/srv/toolsift/toolsift.json"));
    expect(paths.stateDir).toBe(path.resolve("/srv/toolsift/state"));
  });

  it("config precedence: --config, then TOOLSIFT_CONFIG, then $TOOLSIFT_HOME/toolsift.json", () => {
    const env = { HOME: home, TOOLSIFT_HOME: "/srv/th", TOOLSIFT_CONFIG: "/etc/from-env.json" };
    expect(resolveConfigPaths({ env, configPath: "/opt/from-flag.json" })).toMatchObject({
      configPath: path.resolve("/opt/from-flag.json"),
      configSource: "option",
    });
    expect(resolveConfigPaths({ env })).toMatchObject({
      configPath: path.resolve("/etc/from-env.json"),
      configSource: "env",
    });
    expect(resolveConfigPaths({ env: { HOME: home, TOOLSIFT_HOME: "/srv/th" } })).toMatchObject({
      configPath: path.resolve("/srv/th/toolsift.json"),
      configSource: "default",
    });
  });

  it("the config path never moves the state directory; TOOLSIFT_STATE_DIR does", () => {
    const env = { HOME: home, TOOLSIFT_CONFIG: "/etc/toolsift.json" };
    expect(resolveConfigPaths({ env, configPath: "/opt/x.json" }).stateDir).toBe(
      path.join(home, ".toolsift", "state"),
    );
    expect(resolveConfigPaths({ env: { ...env, TOOLSIFT_STATE_DIR: "/var/lib/toolsift" } }).stateDir).toBe(
      path.resolve("/var/lib/toolsift"),
    );
  });

  it("empty values count as unset", () => {
    const paths = resolveConfigPaths({
      env: { HOME: home, TOOLSIFT_HOME: "", TOOLSIFT_CONFIG: " ", TOOLSIFT_STATE_DIR: "" },
      configPath: "",
    });
    expect(paths).toEqual(resolveConfigPaths({ env: { HOME: home } }));
  });

  it("relative paths resolve against the working directory; a leading ~/ is the user's home", () => {
    expect(resolveConfigPaths({ env: { HOME: home }, configPath: "conf/t.json" }).configPath).toBe(
      path.resolve("conf/t.json"),
    );
    const tilde = resolveConfigPaths({
      env: { HOME: home, TOOLSIFT_HOME: "~/th", TOOLSIFT_STATE_DIR: "~/st" },
      configPath: "~/c.json",
    });
    expect(tilde).toMatchObject({
      home: path.join(home, "th"),
      stateDir: path.join(home, "st"),
      configPath: path.join(home, "c.json"),
    });
  });
});
