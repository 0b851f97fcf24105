const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+)([smhd])$/;

/**
 * `<positive integer><unit>` with unit s, m, h or d (`90s`, `15m`, `12h`, `30d`) in
 * milliseconds, or undefined for anything else. Deliberately narrow: no fractions, no
 * combinations, no months (their length varies), so a token never lives longer than meant.
 */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const ms = amount * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return amount > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}
