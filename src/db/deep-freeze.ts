/**
 * Freezes a value shared by every request (a cached read, a kept result), so that none can change
 * another's. Maps are left as they are: freezing does not stop their set(), and none is ever changed.
 */
export function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || value instanceof Map) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
