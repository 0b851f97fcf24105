/**
 * How many times a header was sent. Node keeps only the first of repeated `Authorization` or
 * `Content-Type` headers, where a proxy in front may keep the last: such ambiguity is refused,
 * never resolved by guessing.
 */
export function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  // The length first: most headers differ in it, and lower-casing them would copy each one.
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const header = rawHeaders[i]!;
    if (header.length === name.length && header.toLowerCase() === name) count++;
  }
  return count;
}
