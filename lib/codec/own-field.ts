/**
 * Sets an own field of a JSON object, also one named `__proto__`, which plain assignment would take as the object's
 * prototype: JSON keys are data, whatever they are named.
 */
export function setOwnField(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}
