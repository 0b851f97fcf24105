// Where a server's CPU goes, part by part, from a V8 .cpuprofile (`node --cpu-prof`). Each
// sample is charged to the innermost frame on its stack that belongs to a part (node internals
// and natives count for whoever called them: hashing a token is auth, writing a row is
// storage), or to the framework when no part claims it. Used by `pnpm bench` (BENCH_PROFILE=1)
// to compare the project with the stack floor; runnable alone:
//   node bench/cpu-parts.mjs <file.cpuprofile> [µs per request]

/** The parts, in the order reports list them; the first pattern that matches a frame's file wins. */
export const PARTS = [
  ['parsing (body read, JSON)', [/adapters-http\/dist\/body\//, /packages\/json-reader\//]],
  [
    'validation (plant rules)',
    [
      /adapters-http\/dist\/plants\/(create\/new-plant|replace\/plant-replacement|plant-record)/,
      /adapters-http\/dist\/plants\/plant-id\.pipe/,
      /domain\/dist\/plants\/(plant|plant-id|plant-name|plant-tag|new-plant-shape)\.js/,
      // The floor's own pipe.
      /stack-floor-server\.mjs#transform$/,
    ],
  ],
  [
    'auth and token cache (passport, guards)',
    [
      /adapters-http\/dist\/auth\//,
      /node_modules\/(@nestjs\/passport|passport|passport-http-bearer|passport-strategy)\//,
      /domain\/dist\/tokens\//,
      /adapters-persistence\/dist\/(caching-token-repository|typeorm-token-repository|node-token-secrets)\.js/,
      // The floor's strategy (one SHA-256 of the token).
      /stack-floor-server\.mjs#validate$/,
    ],
  ],
  [
    'storage (repository, TypeORM, driver)',
    [
      /adapters-persistence\/dist\//,
      /node_modules\/(typeorm|better-sqlite3|pg|pg-protocol|pg-pool|pg-types|sql-highlight|app-root-path|dayjs)\//,
      /domain\/dist\/plants\//,
    ],
  ],
  [
    'logging context (pino, request id, request line)',
    [
      /adapters-http\/dist\/(logging\/|pipeline\/request-hooks)/,
      /node_modules\/(pino|pino-std-serializers|nestjs-pino|pino-http|@fastify\/middie|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|on-exit-leak-free)\//,
      // nestjs-pino's request context is a Nest middleware: Nest's middleware runner is its cost.
      /node_modules\/@nestjs\/core\/middleware\//,
      /node_modules\/@nestjs\/platform-fastify\/.*#(runMiddleware|nextOnce)$/,
    ],
  ],
  ['metrics (prom-client)', [/adapters-http\/dist\/observability\/plant-store-metrics/, /node_modules\/prom-client\//]],
  ['limits (rate limits, failed-auth throttle)', [/adapters-http\/dist\/limits\//]],
  ['shedding (in-flight bounds)', [/adapters-http\/dist\/http\/load-shedding/]],
  ['relay (outbox to NATS)', [/adapters-messaging\/dist\//, /node_modules\/(@nats-io\/[^/]+|nats)\//]],
  [
    'handler, errors and the rest of the adapter',
    [/adapters-http\/dist\//, /apps\/api\/dist\//, /packages\/domain\/dist\//, /stack-floor-server\.mjs/],
  ],
];
const FRAMEWORK = 'framework (Nest, Fastify, Node HTTP)';
// Frames of the framework stop the walk: a part's code that calls into the framework (a hook
// that hands the reply on) must not be charged for what the framework does next.
const FRAMEWORK_FILES =
  /node_modules\/(@nestjs\/(core|common|platform-fastify)|fastify|find-my-way|avvio|light-my-request|toad-cache|fast-querystring|fast-json-stringify|@fastify\/(?!middie)[^/]+|rxjs|iterare|reflect-metadata|tslib)\//;
const GC = 'garbage collector';
export const PART_NAMES = [...PARTS.map(([name]) => name), FRAMEWORK, GC];

/**
 * Busy time per part, in µs, of the samples whose time falls in one of `windows` (ms since the
 * profile started; all samples when omitted). Idle samples are left out.
 */
export function cpuParts(profile, windows) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const partOfNode = new Map();
  const partOf = (id) => {
    let part = partOfNode.get(id);
    if (part !== undefined) return part;
    if (byId.get(id).callFrame.functionName === '(garbage collector)') part = GC;
    else {
      part = FRAMEWORK;
      for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) {
        const frame = byId.get(cur).callFrame;
        if (!frame.url || frame.url.startsWith('node:')) continue;
        const key = `${frame.url}#${frame.functionName}`;
        const found = PARTS.find(([, patterns]) => patterns.some((re) => re.test(key)));
        if (found) {
          part = found[0];
          break;
        }
        if (FRAMEWORK_FILES.test(frame.url)) break;
      }
    }
    partOfNode.set(id, part);
    return part;
  };
  const totals = new Map(PART_NAMES.map((name) => [name, 0]));
  let at = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (byId.get(id).callFrame.functionName === '(idle)') return;
    const ms = at / 1000;
    if (windows && !windows.some(([from, to]) => ms >= from && ms < to)) return;
    totals.set(partOf(id), totals.get(partOf(id)) + dt);
    busy += dt;
  });
  return { busyUs: busy, parts: totals };
}

/** The same parts as µs per request: each part's share of busy time × the measured CPU per request. */
export function perRequest({ busyUs, parts }, cpuUsPerRequest) {
  return new Map([...parts].map(([name, us]) => [name, busyUs > 0 ? (us / busyUs) * cpuUsPerRequest : NaN]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFileSync } = await import('node:fs');
  const [file, cpuArg] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/cpu-parts.mjs <file.cpuprofile> [µs per request]');
    process.exit(2);
  }
  const result = cpuParts(JSON.parse(readFileSync(file, 'utf8')));
  const cpu = Number(cpuArg);
  for (const [name, us] of result.parts) {
    const share = (100 * us) / result.busyUs;
    const line = `${share.toFixed(1).padStart(5)} %  ${name}`;
    console.log(Number.isFinite(cpu) ? `${line}: ${((share / 100) * cpu).toFixed(1)} µs per request` : line);
  }
}
