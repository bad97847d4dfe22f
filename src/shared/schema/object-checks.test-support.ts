/** A Proxy over `{}` whose every trap throws (the probes of the hostile-value tests). */
export function throwingProxy(target: object = {}): object {
  const traps = new Proxy(
    {},
    {
      get: () => () => {
        throw new Error("trap called");
      },
    },
  );
  return new Proxy(target, traps);
}

/** A Proxy that was revoked: every operation on it, `Array.isArray` included, throws. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** An instance of a user-defined class. */
export class Point {
  constructor(
    readonly x = 1,
    readonly y = 2,
  ) {}
}
