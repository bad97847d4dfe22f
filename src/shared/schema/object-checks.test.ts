import { describe, expect, it } from "vitest";
import { isObjectRecord } from "./object-checks.js";
import { Point, revokedProxy, throwingProxy } from "./object-checks.test-support.js";

describe("isObjectRecord", () => {
  // Values are built inside the test: formatting a hostile Proxy for the test title would throw.
  it.each<[string, boolean, () => unknown]>([
    ["an object literal", true, () => ({ a: 1 })],
    ["an empty object", true, () => ({})],
    ["JSON.parse output", true, () => JSON.parse('{"a":[1]}')],
    ["Object.create(null)", true, () => Object.create(null)],
    ["a class instance", true, () => new Point()],
    ["a Map", true, () => new Map()],
    ["an Error", true, () => new Error("x")],
    // Array.isArray reads no trap, so such a Proxy is an object like any other (its reads still throw).
    ["a Proxy whose every trap throws", true, () => throwingProxy()],
    ["null", false, () => null],
    ["undefined", false, () => undefined],
    ["a string", false, () => "{}"],
    ["a number", false, () => 1],
    ["a function", false, () => () => ({})],
    ["an array", false, () => [1, 2]],
    ["an empty array", false, () => []],
    ["a Proxy over an array", false, () => new Proxy([], {})],
    ["a Proxy over an array whose every trap throws", false, () => throwingProxy([])],
    ["a revoked Proxy", false, () => revokedProxy()],
  ])("%s → %s", (_name, expected, make) => {
    expect(isObjectRecord(make())).toBe(expected);
  });
});
