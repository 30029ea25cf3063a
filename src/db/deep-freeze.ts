/**
 * Freezes a value shared by every request (a cached read, a kept result), so that none can change
 * another's. Maps are left as they are: freezing does not stop their set(), and none is ever
 * changed. So are typed arrays, which cannot be frozen: none shared is ever written to.
 */
export function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  if (value instanceof Map || ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
