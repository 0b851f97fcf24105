import { EntitySchema } from 'typeorm';

export interface ApiTokenRow {
  id: string;
  name: string;
  tokenHash: string;
  /** Space-separated scope names. */
  scopes: string;
  createdAt: Date | string;
  expiresAt: Date | string | null;
  revokedAt: Date | string | null;
}

export const ApiTokenSchema = new EntitySchema<ApiTokenRow>({
  name: 'ApiToken',
  tableName: 'api_token',
  columns: {
    id: { type: 'varchar', length: 64, primary: true },
    name: { type: 'varchar', length: 400 },
    tokenHash: { name: 'token_hash', type: 'varchar', length: 64, unique: true },
    scopes: { type: 'varchar', length: 200 },
    createdAt: { name: 'created_at', type: 'varchar' },
    expiresAt: { name: 'expires_at', type: 'varchar', nullable: true },
    revokedAt: { name: 'revoked_at', type: 'varchar', nullable: true },
  },
});
