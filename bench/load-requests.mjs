// The requests bench/load.mjs sends, one kind per run, chosen by its config: every one built
// when autocannon is about to send it, so that no request repeats another where a repeat would
// be answered without work (a create's id, a PUT's name, a DELETE's id).
//
//   (default)  POST /plants, a new id each (idBase, idBase + 1, …)
//   read       GET /plants/{id}, cycling through the stored ids given
//   list       GET /plants?limit=…&after=…, a page after each of the stored ids given, in turn
//   put        PUT /plants/{id}, cycling through the stored ids given, each with a name never sent before
//   delete     DELETE /plants/{id}, each id of the range given once (first, first + 1, …)

const JSON_BODY = { 'content-type': 'application/json' };

/** autocannon's `requests` for `config`, and what they used: { requests, used(), exhausted() }. */
export function requestsFor(config, stop) {
  if (Array.isArray(config.read)) return cycling('GET', config.read.map(String), (id) => `/plants/${id}`);
  if (config.list) {
    const limit = Number(config.list.limit);
    return cycling('GET', config.list.after.map(String), (after) => `/plants?limit=${limit}&after=${after}`);
  }
  if (config.put) return puts(config.put.ids.map(String), String(config.put.tag));
  if (config.delete) return deletes(BigInt(config.delete.first), BigInt(config.delete.count), stop);
  return creates(BigInt(config.idBase ?? 0));
}

function cycling(method, values, pathOf) {
  let next = 0;
  const request = {
    method,
    setupRequest(req) {
      req.path = pathOf(values[next++ % values.length]);
      return req;
    },
  };
  return { requests: [request], used: () => 0n, exhausted: () => false };
}

// Ids are written as decimal literals, exactly as a client would send an int64; the driver
// keeps them below 2^53, so any JSON parser reads them exactly.
function creates(idBase) {
  let nextId = idBase;
  const request = {
    method: 'POST',
    path: '/plants',
    headers: JSON_BODY,
    setupRequest(req) {
      req.body = `{"id":${nextId},"name":"Monstera deliciosa","tag":"bench"}`;
      nextId += 1n;
      return req;
    },
  };
  return { requests: [request], used: () => nextId - idBase, exhausted: () => false };
}

/**
 * Without If-Match: with more ids than connections, two PUTs of one plant rarely overlap, and
 * when they do the server decides the later one again (both are writes: their names differ).
 */
function puts(ids, tag) {
  let n = 0;
  const request = {
    method: 'PUT',
    headers: JSON_BODY,
    setupRequest(req) {
      const id = ids[n % ids.length];
      req.path = `/plants/${id}`;
      req.body = `{"name":"Bench rename ${tag}-${n}","tag":"bench"}`;
      n += 1;
      return req;
    },
  };
  return { requests: [request], used: () => BigInt(n), exhausted: () => false };
}

/** Each id once, so each 204 is a new tombstone; past the range, the run stops (a repeat would be 204 for nothing). */
function deletes(first, count, stop) {
  let n = 0n;
  let ranOut = false;
  const request = {
    method: 'DELETE',
    setupRequest(req) {
      if (n >= count) {
        // A 400 (no such id), never a 2xx, while autocannon stops.
        if (!ranOut) setImmediate(stop);
        ranOut = true;
        req.path = '/plants/ran-out';
        return req;
      }
      req.path = `/plants/${first + n}`;
      n += 1n;
      return req;
    },
  };
  return { requests: [request], used: () => n, exhausted: () => ranOut };
}
