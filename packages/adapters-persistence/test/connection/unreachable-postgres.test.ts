import { openDataSource, parseDatabaseUrl } from '@plantstore/adapters-persistence';

// Port 1 on the loopback is closed: the connection is refused, as when the server is down.
const UNREACHABLE = 'postgres://postgres@127.0.0.1:1/test';

describe('an unreachable PostgreSQL', () => {
  it('makes openDataSource reject, saying the connection was refused', async () => {
    const failure = await openDataSource(
      parseDatabaseUrl(UNREACHABLE, 'unused.sqlite', { pgConnectTimeoutMs: 2_000 }),
    ).then(
      async (dataSource) => {
        await dataSource.destroy();
        return 'opened';
      },
      (error: unknown) => error,
    );
    // Node's socket errors come from another realm than jest's, so match the shape, not the class.
    expect(failure).toMatchObject({ code: 'ECONNREFUSED', message: expect.stringContaining('127.0.0.1:1') });
  });
});
