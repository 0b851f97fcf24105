import { TOKEN_PREFIX } from './api-token.js';
import type { TokenSecrets } from './token-ports.js';

/**
 * The part of Web Crypto that token secrets need, declared here so that the domain compiles
 * without DOM or Node types. `globalThis.crypto` of browsers, Deno, Bun, edge runtimes and
 * Node ≥ 20 fits it.
 */
export interface WebCrypto {
  // Over ArrayBuffer, not SharedArrayBuffer: that is what DOM's Crypto accepts.
  getRandomValues<T extends Uint8Array<ArrayBuffer>>(array: T): T;
  randomUUID(): string;
  readonly subtle: { digest(algorithm: 'SHA-256', data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> };
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * TokenSecrets on Web Crypto, for runtimes where SHA-256 is only asynchronous. Digests are
 * the same as any other SHA-256 implementation's (the UTF-8 bytes, hex), so tokens issued
 * here authenticate against a store written by, say, Node's `createHash`, and back.
 * @throws {Error} no `crypto` is given and `globalThis.crypto` is missing.
 */
export function webCryptoTokenSecrets(
  crypto: WebCrypto | undefined = (globalThis as { crypto?: WebCrypto }).crypto,
): TokenSecrets {
  if (crypto === undefined) throw new Error('webCryptoTokenSecrets needs Web Crypto: globalThis.crypto is missing');
  return {
    generateToken: () => TOKEN_PREFIX + base64url(crypto.getRandomValues(new Uint8Array(32))),
    generateId: () => crypto.randomUUID(),
    hash: async (token) => hex(await crypto.subtle.digest('SHA-256', utf8(token))),
  };
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const group = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    // 1, 2 or 3 bytes make 2, 3 or 4 characters; no padding.
    const characters = Math.min(3, bytes.length - i) + 1;
    for (let c = 0; c < characters; c++) text += BASE64URL[(group >> (18 - 6 * c)) & 63];
  }
  return text;
}

/** UTF-8 as TextEncoder and Node write it: an unpaired surrogate becomes U+FFFD. */
function utf8(text: string): Uint8Array<ArrayBuffer> {
  const bytes: number[] = [];
  for (const character of text) {
    let code = character.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return Uint8Array.from(bytes);
}

function hex(digest: ArrayBuffer): string {
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
