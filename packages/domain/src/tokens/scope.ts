/** What a token may do: `plants:write` creates plants, `plants:read` reads them (GET one, list). */
export const SCOPES = ['plants:write', 'plants:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scopes of a token issued without any: both. Tokens issued before keep the scopes they were given. */
export const DEFAULT_SCOPES: readonly Scope[] = ['plants:write', 'plants:read'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
