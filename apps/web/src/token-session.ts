import { hasTokenShape, TOKEN_PREFIX } from '@plantstore/domain';

/** The part of the Web Storage API the page uses: sessionStorage in the browser. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const KEY = 'plantstore.token';

export type RememberResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * The API token the person pasted, kept in sessionStorage only: this tab, until it closes or
 * the person forgets it. Never localStorage (it outlives the tab), a cookie (it would travel
 * with every request, the page's own included) or a URL (history, logs, Referer).
 */
export class TokenSession {
  constructor(private readonly storage: TokenStorage) {}

  get token(): string | undefined {
    return this.storage.getItem(KEY) ?? undefined;
  }

  /** Keeps a pasted token when it has a token's shape; white space around it is a paste's, not the token's. */
  remember(pasted: string): RememberResult {
    const token = pasted.trim();
    if (!hasTokenShape(token))
      return {
        ok: false,
        message: `This is not a Plant Store API token: paste the whole token, starting with ${TOKEN_PREFIX}, as the operator received it from "plantstore token create".`,
      };
    this.storage.setItem(KEY, token);
    return { ok: true };
  }

  forget(): void {
    this.storage.removeItem(KEY);
  }
}
