/**
 * Creates, changes and deletes plants on one or more servers until told to stop, as clients
 * would while a follower reads the feed: what the follower's copy must end equal to is then
 * whatever the table holds. Requests that fail (a server killed on purpose) are dropped.
 */
export function churnPlants(options: {
  /** The servers still up; each request goes to the next. */
  readonly urls: () => readonly string[];
  readonly token: string;
  /** Plants 1..ids are created first, then changed and deleted in turn. */
  readonly ids: number;
}): { stop(): Promise<number> } {
  let stopped = false;
  let sent = 0;
  const run = (async () => {
    for (let i = 0; !stopped; i++) {
      const urls = options.urls();
      const url = urls[i % urls.length]!;
      const id = 1 + (i % options.ids);
      const created = i >= options.ids;
      const [method, path, body] = !created
        ? (['POST', '/plants', `{"id":${id},"name":"plant ${id}","tag":"t${i % 3}"}`] as const)
        : i % 11 === 0
          ? (['DELETE', `/plants/${id}`, undefined] as const)
          : ([
              'PUT',
              `/plants/${id}`,
              JSON.stringify({ name: `plant ${id} #${i}`, ...(i % 2 ? { tag: 'odd' } : {}) }),
            ] as const);
      try {
        const res = await fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(5_000),
        });
        await res.arrayBuffer();
        sent++;
      } catch {
        // A server gone mid-request: its write may or may not have committed; the table says.
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await run;
      return sent;
    },
  };
}
