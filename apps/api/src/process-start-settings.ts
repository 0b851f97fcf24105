import { youngGenerationFlagsMissing } from './v8-memory.js';

/** The glibc malloc arenas the server runs with unless the operator sets MALLOC_ARENA_MAX. */
export const MALLOC_ARENA_MAX = '2';

/**
 * Restarts this very process (same pid, flags and arguments) with the settings that are read
 * only when a process starts, where they are missing, so that `pnpm start` and a bare
 * `node apps/api/dist/main.js` get what the container image sets:
 * - MALLOC_ARENA_MAX=2, which glibc reads at process start: without it, the memory V8's
 *   compiler threads free stays resident in arenas of their own (docs/operations.md#memory);
 * - V8's young-generation cap (v8-memory.ts), which V8 reads when the isolate starts: set at
 *   run time instead, it was raced by the heap's own growth under a burst of load (16 MiB
 *   instead of 8 in some runs).
 *
 * Left alone: an operator's own values (any MALLOC_ARENA_MAX, even empty; any young-generation
 * flag), which also ends the recursion; other platforms than Linux; a Node without
 * process.execve; and a process with an IPC channel (`node --watch`, `pnpm dev`), which exec
 * would close (dev.mjs sets both instead; v8-memory.ts has a run-time fallback).
 */
export function restartWithProcessStartSettings(): void {
  const arenasMissing = process.env['MALLOC_ARENA_MAX'] === undefined;
  const flags = youngGenerationFlagsMissing();
  if (!arenasMissing && flags.length === 0) return;
  if (process.platform !== 'linux' || typeof process.execve !== 'function' || process.channel !== undefined) return;
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...(arenasMissing ? { MALLOC_ARENA_MAX } : {}),
  });
}
