import { hash, randomBytes, randomUUID } from 'node:crypto';
import { TOKEN_PREFIX, type TokenSecrets } from '@plantstore/domain';

/**
 * Tokens are stored only as SHA-256 digests: a leaked table does not leak usable tokens.
 * Node's one-shot synchronous hash is faster than Web Crypto's digest for one short token (and
 * than createHash, which builds a Hash object per call: this runs on every request);
 * the port is asynchronous for runtimes that only have the latter.
 */
export const nodeTokenSecrets: TokenSecrets = {
  generateToken: () => TOKEN_PREFIX + randomBytes(32).toString('base64url'),
  generateId: () => randomUUID(),
  hash: async (token) => hash('sha256', token, 'hex'),
};
