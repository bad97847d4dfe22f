import { describe, expect, it } from "vitest";
import { isPlainObject } from "./object-checks.js";
import { Point, revokedProxy, throwingProxy } from "./object-checks.test-support.js";

describe("isPlainObject", () => {
  // Values are built inside the test: formatting a hostile Proxy for the test title would throw.
  it.each<[string, boolean, () => unknown]>([
    ["an object literal", true, () => ({ a: 1 })],
    ["an empty object", true, () => ({})],
    ["JSON.parse output", true, () => JSON.parse('{"a":[1]}')],
    ["Object.create(null)", true, () => Object.create(null)],
    ["a Proxy forwarding to a plain object", true, () => new Proxy({ a: 1 }, {})],
    ["null", false, () => null],
    ["undefined", false, () => undefined],
    ["a string", false, () => "{}"],
    ["a number", false, () => 1],
    ["a function", false, () => () => ({})],
    ["an array", false, () => [1, 2]],
    ["an empty array", false, () => []],
    ["a Proxy over an array", false, () => new Proxy([], {})],
    ["a class instance", false, () => new Point()],
    ["a Map", false, () => new Map()],
    ["a Date", false, () => new Date(0)],
    ["an Error", false, () => new Error("x")],
    ["an object inheriting from a plain object", false, () => Object.create({ a: 1 })],
    ["a Proxy whose every trap throws", false, () => throwingProxy()],
    ["a revoked Proxy", false, () => revokedProxy()],
  ])("%s → %s", (_name, expected, make) => {
    expect(isPlainObject(make())).toBe(expected);
  });
});
