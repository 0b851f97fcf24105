import { TokenSession, type TokenStorage } from '../src/token-session.js';

const TOKEN = `pst_${'A'.repeat(43)}`;

/** sessionStorage as a Map, recording what was written. */
class MapStorage implements TokenStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

describe('the token kept for this tab', () => {
  it('is kept as pasted, without the white space a paste brings, and forgotten on request', () => {
    const storage = new MapStorage();
    const session = new TokenSession(storage);
    expect(session.token).toBeUndefined();
    expect(session.remember(` ${TOKEN}\n`)).toEqual({ ok: true });
    expect(session.token).toBe(TOKEN);
    expect([...storage.items.values()]).toEqual([TOKEN]);
    session.forget();
    expect(session.token).toBeUndefined();
    expect(storage.items.size).toBe(0);
  });

  it.each(['', 'Bearer ' + TOKEN, TOKEN.slice(0, -1), `pst_${'A'.repeat(42)}!`])(
    'refuses %j, which is no token, and keeps nothing',
    (pasted) => {
      const storage = new MapStorage();
      const result = new TokenSession(storage).remember(pasted);
      expect(result).toEqual({ ok: false, message: expect.stringContaining('This is not a Plant Store API token') });
      expect(storage.items.size).toBe(0);
    },
  );

  it('replaces an earlier token', () => {
    const session = new TokenSession(new MapStorage());
    session.remember(TOKEN);
    const other = `pst_${'b'.repeat(43)}`;
    session.remember(other);
    expect(session.token).toBe(other);
  });
});
