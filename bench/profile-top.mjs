// Summarise a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time, and self
// time grouped by package / source area. Usage:
//   node bench/profile-top.mjs /tmp/prof/CPU.*.cpuprofile [top=30]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-top.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map();
const { samples, timeDeltas } = profile;
for (let i = 0; i < samples.length; i++) {
  const dt = timeDeltas[i] ?? 0;
  selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + dt);
}
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idleUs = [...selfUs].filter(([id]) => byId.get(id).callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0);
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
  const where = callFrame.url ? `${callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '')}:${callFrame.lineNumber + 1}` : '';
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

// Inclusive (total) time per function: self time of the function and everything it called,
// counted once per stack even when the function recurses. Async continuations are separate
// stacks in V8 profiles, so this shows synchronous work only.
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const keyOf = (node) => {
  const { callFrame } = node;
  const where = callFrame.url ? `${callFrame.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '')}:${callFrame.lineNumber + 1}` : '';
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
const interesting = (key) => !/^(processTicksAndRejections|runMicrotasks|emit|listOnTimeout|processTimers|(anonymous) node:)/.test(key) && !/ node:/.test(key);
console.log(`\nTop ${top} functions by inclusive time (synchronous stacks, node: internals left out):`);
for (const [key, us] of [...inclusive].filter(([key]) => interesting(key)).sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${pct(us)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
}
