import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { TOKEN_PREFIX, type TokenSecrets } from '@plantstore/domain';

/** Tokens are stored only as SHA-256 digests: a leaked table does not leak usable tokens. */
export const nodeTokenSecrets: TokenSecrets = {
  generateToken: () => TOKEN_PREFIX + randomBytes(32).toString('base64url'),
  generateId: () => randomUUID(),
  hash: (token) => createHash('sha256').update(token, 'utf8').digest('hex'),
};
