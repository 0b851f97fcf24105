import { TOKEN_PREFIX } from '../tokens/api-token.js';
import type { TokenSecrets } from '../tokens/token-ports.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const FILLER = 'q9-Xz_Lm3TbW0ceRk7uYhN2sVdJ5aGfP8oI1w'; // 37 base64url characters

/**
 * TokenSecrets without any crypto: tokens and ids come from counters, so runs are
 * reproducible, and tokens have the real shape (`pst_` + 43 base64url characters, the
 * counter in the last six). The "hash" is FNV-1a spread to 64 hex digits: the plaintext
 * cannot be read off it, which is all a test of "only the hash is stored" needs. Never use
 * it outside tests: its tokens are guessable.
 */
export class DeterministicTokenSecrets implements TokenSecrets {
  private tokens = 0;
  private ids = 0;

  generateToken(): string {
    let counter = '';
    for (let n = ++this.tokens, i = 0; i < 6; i++, n = Math.floor(n / 64)) counter = BASE64URL[n % 64] + counter;
    return TOKEN_PREFIX + FILLER + counter;
  }

  generateId(): string {
    return `tok-${String(++this.ids).padStart(4, '0')}`;
  }

  async hash(token: string): Promise<string> {
    let digest = '';
    for (let seed = 0; seed < 8; seed++) {
      let h = (0x811c9dc5 ^ seed) >>> 0;
      for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193) >>> 0;
      digest += h.toString(16).padStart(8, '0');
    }
    return digest;
  }
}
