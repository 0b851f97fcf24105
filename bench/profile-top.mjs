// Summarise a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time, self time
// grouped by package / source area, the same grouped into the areas of the request path
// (node internals charged to the package that called them), and inclusive time. Usage:
//   node bench/profile-top.mjs /tmp/prof/CPU.*.cpuprofile [top=30] [--busiest-s=N]
// --busiest-s=N keeps only the samples of the N-second window with the least idle time: the
// measured run under load, without start-up, warm-up and the other servers' turns.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const windowArg = args.find((a) => a.startsWith('--busiest-s='));
const [file, topArg] = args.filter((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: node bench/profile-top.mjs <file.cpuprofile> [top] [--busiest-s=N]');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const { samples, timeDeltas } = profile;
const isIdle = (i) => byId.get(samples[i]).callFrame.functionName === '(idle)';
let [firstSample, endSample] = [0, samples.length];
if (windowArg) {
  // Two pointers over the sample times (startTime + running sum of timeDeltas).
  const windowUs = Number(windowArg.slice('--busiest-s='.length)) * 1e6;
  const at = [];
  for (let i = 0, t = profile.startTime; i < samples.length; i++) at.push((t += timeDeltas[i] ?? 0));
  let busy = 0;
  let best = -1;
  for (let lo = 0, hi = 0; hi < samples.length; hi++) {
    if (!isIdle(hi)) busy += timeDeltas[hi] ?? 0;
    while (at[hi] - at[lo] > windowUs) if (!isIdle(lo++)) busy -= timeDeltas[lo - 1] ?? 0;
    if (busy > best) [best, firstSample, endSample] = [busy, lo, hi + 1];
  }
}
const selfUs = new Map();
for (let i = firstSample; i < endSample; i++) {
  const dt = timeDeltas[i] ?? 0;
  selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + dt);
}
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idleUs = [...selfUs]
  .filter(([id]) => byId.get(id).callFrame.functionName === '(idle)')
  .reduce((a, [, us]) => a + us, 0);
const busyUs = totalUs - idleUs;

function area(url) {
  if (!url) return '(native / VM)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const own = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  return url.replace(/^file:\/\//, '');
}

const byFunction = new Map();
const byArea = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  if (callFrame.functionName === '(idle)') continue;
  const name = callFrame.functionName || '(anonymous)';
  const where = callFrame.url
    ? `${callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '')}:${callFrame.lineNumber + 1}`
    : '';
  const key = `${name} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const a = area(callFrame.url);
  byArea.set(a, (byArea.get(a) ?? 0) + us);
}

// Percentages are of busy time (everything but "(idle)"). Time spent inside a synchronous
// native call (for example better-sqlite3 running a statement and its fsync) is the self time
// of the JS function that made the call.
const pct = (us) => ((100 * us) / busyUs).toFixed(1).padStart(5);
console.log(
  `${file}: ${(totalUs / 1e6).toFixed(2)} s sampled, ${samples.length} samples, ${(busyUs / 1e6).toFixed(2)} s busy (${((100 * busyUs) / totalUs).toFixed(0)} %), % below are of busy time`,
);
console.log(`\nTop ${top} functions by self time:`);
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${pct(us)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
}
console.log('\nSelf time by package / area:');
for (const [key, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${pct(us)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
}

// The areas of the request path. Time in node internals and natives (sockets, streams, http,
// async hooks, hashing) goes to the nearest caller that is a package or this repository's code,
// so that e.g. writing a response counts for whoever wrote it; GC and "(program)" have no caller.
const REQUEST_PATH_AREAS = [
  [
    'Nest pipeline (core, platform-fastify, rxjs)',
    /^@nestjs\/(core|common|platform-fastify)$|^(rxjs|iterare|reflect-metadata|uid|fast-safe-stringify)$/,
  ],
  [
    'passport (@nestjs/passport, passport, passport-http-bearer)',
    /^(@nestjs\/passport|passport|passport-http-bearer|passport-strategy)$/,
  ],
  ['class-validator', /^(class-validator|validator|libphonenumber-js)$/],
  [
    'pino, nestjs-pino and its middleware (middie)',
    /^(pino|pino-std-serializers|nestjs-pino|pino-http|@fastify\/middie|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|on-exit-leak-free)$/,
  ],
  ['prom-client', /^(prom-client|tdigest|bintrees)$/],
  [
    'fastify (routing, hooks, reply)',
    /^(fastify|find-my-way|@fastify\/.*|toad-cache|avvio|light-my-request|fast-querystring|fast-json-stringify|secure-json-parse|abstract-logging|rfdc)$/,
  ],
  ['JSON reading (json-reader, body pipe)', /^packages\/json-reader$/],
  [
    'TypeORM and better-sqlite3 / pg',
    /^(typeorm|better-sqlite3|pg|pg-protocol|pg-pool|sql-highlight|app-root-path|dayjs)$/,
  ],
  ['this repository: adapters-http', /^packages\/adapters-http$/],
  ['this repository: adapters-persistence', /^packages\/adapters-persistence$/],
  ['this repository: domain, application, apps', /^(packages|apps)\//],
];
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const chargedArea = (id) => {
  for (let cur = id; cur !== undefined; cur = parentOf.get(cur)) {
    const { url } = byId.get(cur).callFrame;
    if (url && !url.startsWith('node:')) return area(url);
  }
  const name = byId.get(id).callFrame.functionName;
  return name === '(garbage collector)'
    ? 'GC'
    : name === '(program)'
      ? '(program)'
      : 'node / native, no package caller';
};
const byRequestArea = new Map();
for (const [id, us] of selfUs) {
  if (byId.get(id).callFrame.functionName === '(idle)') continue;
  const a = chargedArea(id);
  const name = REQUEST_PATH_AREAS.find(([, re]) => re.test(a))?.[0] ?? (a.startsWith('/') ? 'other files' : a);
  byRequestArea.set(name, (byRequestArea.get(name) ?? 0) + us);
}
console.log(
  '\nSelf time by area of the request path (node internals and natives charged to their nearest package caller):',
);
for (const [key, us] of [...byRequestArea].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${pct(us)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
}

// Inclusive (total) time per function: self time of the function and everything it called,
// counted once per stack even when the function recurses. Async continuations are separate
// stacks in V8 profiles, so this shows synchronous work only.
const parent = parentOf;
const keyOf = (node) => {
  const { callFrame } = node;
  const where = callFrame.url
    ? `${callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '')}:${callFrame.lineNumber + 1}`
    : '';
  return `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
};
const inclusive = new Map();
for (const [id, us] of selfUs) {
  if (byId.get(id).callFrame.functionName === '(idle)') continue;
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const node = byId.get(cur);
    if (!node.callFrame.url) continue; // (root), (program), natives: not informative
    const key = keyOf(node);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}
const interesting = (key) =>
  !/^(processTicksAndRejections|runMicrotasks|emit|listOnTimeout|processTimers|(anonymous) node:)/.test(key) &&
  !/ node:/.test(key);
console.log(`\nTop ${top} functions by inclusive time (synchronous stacks, node: internals left out):`);
for (const [key, us] of [...inclusive]
  .filter(([key]) => interesting(key))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top)) {
  console.log(`${pct(us)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
}
