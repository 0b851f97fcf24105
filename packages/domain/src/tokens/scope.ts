/** What a token may do. `plants:read` exists for least-privilege tokens (monitoring, reads). */
export const SCOPES = ['plants:write', 'plants:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const DEFAULT_SCOPES: readonly Scope[] = ['plants:write'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
