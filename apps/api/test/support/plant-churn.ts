/** What a churn has done so far. */
export interface PlantChurn {
  /** Requests the servers answered with 2xx: each one a change the table holds. */
  changed(): number;
  /** Stops after the request in flight; answers how many requests got an answer. */
  stop(): Promise<number>;
}

/**
 * Creates, changes and deletes plants on one or more servers until told to stop, as clients
 * would while a follower reads the feed: what the follower's copy must end equal to is then
 * whatever the table holds. Requests that fail (a server killed on purpose) are dropped.
 * A deleted id is retired for ever, so each deletion is followed by the create of a new id:
 * however long it runs, `ids` plants stay live and every request changes one.
 */
export function churnPlants(options: {
  /** The servers still up; each request goes to the next. */
  readonly urls: () => readonly string[];
  readonly token: string;
  /** How many plants are live at a time. */
  readonly ids: number;
}): PlantChurn {
  let stopped = false;
  let answered = 0;
  let changed = 0;
  const live: number[] = [];
  let nextId = 1;
  const run = (async () => {
    for (let i = 0; !stopped; i++) {
      const urls = options.urls();
      const url = urls[i % urls.length]!;
      const [method, path, body] = nextRequest(i);
      try {
        const res = await fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(5_000),
        });
        await res.arrayBuffer();
        answered++;
        if (res.ok) changed++;
      } catch {
        // A server gone mid-request: its write may or may not have committed; the table says.
      }
    }
  })();

  function nextRequest(i: number): readonly [string, string, string | undefined] {
    if (live.length < options.ids) {
      const id = nextId++;
      live.push(id);
      return ['POST', '/plants', `{"id":${id},"name":"plant ${id}","tag":"t${i % 3}"}`];
    }
    const [id] = live.splice(i % live.length, 1) as [number];
    if (i % 11 === 0) return ['DELETE', `/plants/${id}`, undefined];
    live.push(id);
    return ['PUT', `/plants/${id}`, JSON.stringify({ name: `plant ${id} #${i}`, ...(i % 2 ? { tag: 'odd' } : {}) })];
  }

  return {
    changed: () => changed,
    async stop() {
      stopped = true;
      await run;
      return answered;
    },
  };
}
