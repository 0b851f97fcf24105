import type { StoredApiToken } from '../../tokens/api-token.js';
import type { TokenRepository } from '../../tokens/token-ports.js';
import { ensure, ensureEqual, ensureRejects, show, type ContractCheck } from './check.js';

function storedToken(changes: Partial<StoredApiToken> = {}): StoredApiToken {
  return {
    id: 'tok-1',
    name: 'ci pipeline 🌵',
    hash: 'ab'.repeat(32),
    scopes: ['plants:write', 'plants:read'],
    createdAt: new Date('2025-06-01T12:00:00.123Z'),
    expiresAt: new Date('2025-07-01T00:00:00.456Z'),
    revokedAt: undefined,
    ...changes,
  };
}

export interface TokenRepositorySubject {
  /** A repository over a store holding no token; called once at the start of every check. */
  empty(): Promise<TokenRepository>;
}

/** The checks every TokenRepository must pass (see the port's comments). */
export function tokenRepositoryContract(subject: TokenRepositorySubject): ContractCheck[] {
  return [
    {
      name: 'finds an added token by its hash with every field as it was, dates to the millisecond',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken());
        const found = await tokens.findByHash(storedToken().hash);
        ensureEqual(found, storedToken(), 'the token found by its hash');
        ensure(
          found?.createdAt instanceof Date && found.expiresAt instanceof Date,
          `dates come back as Date objects, got ${show(found)}`,
        );
      },
    },
    {
      name: 'keeps an absent expiry and revocation absent (undefined, not null)',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken({ expiresAt: undefined }));
        const found = await tokens.findByHash(storedToken().hash);
        for (const field of ['expiresAt', 'revokedAt'] as const) {
          const got =
            found === undefined ? 'no token' : Object.hasOwn(found, field) ? show(found[field]) : 'no such property';
          ensure(
            found !== undefined && Object.hasOwn(found, field) && found[field] === undefined,
            `${field} is present and undefined, got ${got}`,
          );
        }
      },
    },
    {
      name: 'finds nothing for an unknown hash',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken());
        ensureEqual(await tokens.findByHash('cd'.repeat(32)), undefined, 'findByHash of an unknown hash');
      },
    },
    {
      name: 'refuses a second token with the same hash',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken());
        await ensureRejects(() => tokens.add(storedToken({ id: 'tok-2' })), 'adding a second token with the same hash');
      },
    },
    {
      name: 'refuses a second token with the same id',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken());
        await ensureRejects(
          () => tokens.add(storedToken({ hash: 'cd'.repeat(32) })),
          'adding a second token with the same id',
        );
      },
    },
    {
      name: 'lists tokens oldest first, never with a hash',
      run: async () => {
        const tokens = await subject.empty();
        const newer = storedToken({
          id: 'tok-b',
          hash: '11'.repeat(32),
          createdAt: new Date('2025-06-02T00:00:00.000Z'),
        });
        const older = storedToken({
          id: 'tok-a',
          hash: '22'.repeat(32),
          createdAt: new Date('2025-06-01T00:00:00.000Z'),
        });
        await tokens.add(newer);
        await tokens.add(older);
        const listed = await tokens.list();
        const { hash: _older, ...olderWithoutHash } = older;
        const { hash: _newer, ...newerWithoutHash } = newer;
        ensureEqual(listed, [olderWithoutHash, newerWithoutHash], 'the tokens listed');
        for (const token of listed)
          ensure(!Object.hasOwn(token, 'hash'), `a listed token has no hash property, got ${show(token)}`);
        ensure(!/(11){32}|(22){32}/.test(show(listed)), 'no hash appears anywhere in the list');
      },
    },
    {
      name: 'revokes a known token at the given time, and keeps the first time when revoked again',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken());
        const first = new Date('2025-06-03T08:00:00.001Z');
        ensureEqual(await tokens.revoke('tok-1', first), true, 'first revoke of a known token');
        ensureEqual(
          await tokens.revoke('tok-1', new Date('2025-06-04T08:00:00.000Z')),
          true,
          'second revoke of a known token',
        );
        ensureEqual((await tokens.findByHash(storedToken().hash))?.revokedAt, first, 'revokedAt found by hash');
        ensureEqual((await tokens.list())[0]?.revokedAt, first, 'revokedAt listed');
      },
    },
    {
      name: 'keeps the first time when two revocations race',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken());
        const first = new Date('2025-06-03T08:00:00.000Z');
        await Promise.all([
          tokens.revoke('tok-1', first),
          tokens.revoke('tok-1', new Date('2025-06-04T08:00:00.000Z')),
        ]);
        ensureEqual(
          (await tokens.findByHash(storedToken().hash))?.revokedAt,
          first,
          'revokedAt after two racing revocations',
        );
      },
    },
    {
      name: 'says false when revoking an unknown id, and changes nothing',
      run: async () => {
        const tokens = await subject.empty();
        await tokens.add(storedToken());
        ensureEqual(await tokens.revoke('no-such-token', new Date()), false, 'revoke of an unknown id');
        ensureEqual((await tokens.list())[0]?.revokedAt, undefined, 'revokedAt of the known token');
      },
    },
  ];
}
