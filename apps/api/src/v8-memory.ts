import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * V8 memory settings of the server, applied from inside the process so that a bare
 * `node apps/api/dist/main.js` gets them as well as `pnpm start` (bench/README.md, "Memory").
 * Node flags given by the operator (command line or NODE_OPTIONS) win over these.
 */

/** Young generation (both semi-spaces) once serving: YOUNG_GENERATION_FLAG's. */
export const YOUNG_GENERATION_LIMIT_BYTES = 8 * 1024 * 1024;
/** The cap as V8 reads it when the isolate starts: each of the two semi-spaces in MiB. */
export const YOUNG_GENERATION_FLAG = `--max-semi-space-size=${YOUNG_GENERATION_LIMIT_BYTES / 2 / (1024 * 1024)}`;
/** Old generation: next full collection at 125 % of what the last one kept. */
export const OLD_GENERATION_GROWING_PERCENT = 25;

const operatorFlags = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
const operatorSets = (pattern: RegExp): boolean => operatorFlags.some((flag) => pattern.test(flag));
/** The operator's young-generation flags, or ours once process-start-settings.ts restarted with them. */
const youngGenerationOnCommandLine = operatorSets(
  /^--(max|min)[-_]semi[-_]space[-_]size\b|^--semi[-_]space[-_]growth[-_]factor\b|^--max[-_]heap[-_]size\b/,
);

/** The flags to restart with (process-start-settings.ts) when the command line sets no young generation. */
export function youngGenerationFlagsMissing(): string[] {
  return youngGenerationOnCommandLine ? [] : [YOUNG_GENERATION_FLAG];
}

/**
 * Before anything else is loaded.
 *
 * Allocation-site pretenuring: V8 allocates objects of an allocation site straight in the old
 * generation once most of them outlive a scavenge. Under load every request's headers and guard
 * state outlive one while the request waits for its group commit, so those sites were
 * pretenured and each request left its garbage in the old generation, which grew large
 * between full collections. Without pretenuring they die young.
 *
 * Old generation: a full collection once it has grown a fixed share past what the last one
 * kept (OLD_GENERATION_GROWING_PERCENT), not the share V8 picks from its GC speed: what
 * reaches the old generation under load is mostly garbage, cheap to collect, and left alone
 * it grew during a bench run. The measurements are in docs/decisions.md#performance.
 *
 * Without the young generation on the command line (a process that could not restart with
 * it), it is held at its initial size during start-up (see tuneV8ForServing).
 */
export function tuneV8BeforeStart(): void {
  if (!operatorSets(/^--(no[-_])?allocation[-_]site[-_]pretenuring\b/))
    setFlagsFromString('--no-allocation-site-pretenuring');
  if (!operatorSets(/^--heap[-_]growing[-_]percent\b/))
    setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWING_PERCENT}`);
  if (!youngGenerationOnCommandLine) setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * The fallback of a process that could not restart with YOUNG_GENERATION_FLAG (`pnpm dev`'s
 * watched server, another platform): approximate, as the heap may grow twice before the
 * observer below hears of the first growth.
 *
 * Once serving, the young generation may grow up to `youngLimitBytes` instead of V8's default,
 * which is all resident under load: more scavenges, each shorter, at the same throughput and a
 * smaller RSS. `--max-semi-space-size` only takes effect on the command line (V8 sizes
 * the heap when the process starts), but the growth factor is read at each growth: after
 * every GC it is set so that the next growth stops at the limit (1 once there). Growth takes
 * many scavenges' worth of survivors, so this runs in between; during the synchronous
 * start-up it would not, hence the factor of 1 until now.
 *
 * Should V8 ever ignore a flag changed at run time, that setting is only back to its default.
 */
export function tuneV8ForServing(youngLimitBytes = YOUNG_GENERATION_LIMIT_BYTES): void {
  if (youngGenerationOnCommandLine) return;
  let factor = 0;
  const adjust = () => {
    const size =
      getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? youngLimitBytes;
    const next = Math.max(1, Math.floor(youngLimitBytes / size));
    if (next === factor) return;
    factor = next;
    setFlagsFromString(`--semi-space-growth-factor=${next}`);
  };
  new PerformanceObserver(adjust).observe({ entryTypes: ['gc'] });
  adjust();
}
