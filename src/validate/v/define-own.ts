/**
 * Sets an own, enumerable property, even for keys such as `__proto__` that plain assignment
 * would turn into a prototype change.
 */
export function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
