/**
 * A PostgreSQL array literal ({1,2.5,...}) for a query parameter cast to an array type. Joining
 * the text here is much faster than the drivers' generic array serialisers for large batches.
 * Only for numbers and ISO timestamps, which never need quoting.
 */
export function arrayLiteral(values: readonly (number | bigint | string)[]): string {
  return `{${values.join(',')}}`;
}
