// The child processes of a `pnpm bench` run (servers, load generators): each tracked from its
// start so that none outlives the run, stopped with a grace period, and read from /proc for
// the report's CPU and RSS columns.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

const children = new Set();
let closed = false;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Keeps `child` until it exits, with `child.exited` resolving to its { code, signal }. */
export function track(child, label) {
  if (closed) {
    // Cleanup has started (signal or time limit): nothing new may outlive it.
    child.kill('SIGKILL');
    throw new Error('bench is shutting down');
  }
  children.add(child);
  child.label = label;
  child.exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  child.exited.then(() => children.delete(child));
  return child;
}

export async function stopChild(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return child.exited;
  try {
    child.kill('SIGTERM');
  } catch {
    // Already gone: the exit is awaited below either way.
  }
  const timer = setTimeout(() => {
    try {
      child.kill('SIGKILL');
    } catch {
      // Exited during the grace period.
    }
  }, graceMs);
  const result = await child.exited;
  clearTimeout(timer);
  return result;
}

/** Stops every child still running, and refuses new ones from now on. */
export function stopAllChildren() {
  closed = true;
  return Promise.all([...children].map((child) => stopChild(child)));
}

/** The last lines of a log file, for an error message; nothing if unreadable. */
export function tail(path, lines = 20) {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** RSS and its file-backed part (mapped files, mostly the node binary's pages), in kB; zeros if unreadable. */
export function rssKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
    return { total: field('VmRSS'), file: field('RssFile') };
  } catch {
    return { total: 0, file: 0 };
  }
}

const CLOCK_TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU time (user + system, all threads) the process has used so far, in µs; NaN if unreadable. */
export function cpuUs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S) * 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * A process's resident memory split by owner, in kB, from /proc/<pid>/smaps_rollup: `private`,
 * the anonymous pages the process made itself (V8's heap, malloc, stacks); `file`, pages of
 * mapped files (the node binary, native addons), which the page cache shares and no code of
 * the project decides; `pssFile`, this process's share of those. Zeros if unreadable.
 */
export function memorySplitKb(pid) {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(rollup)?.[1] ?? 0);
    const total = field('Rss');
    const anonymous = field('Anonymous');
    return { total, private: anonymous, file: total - anonymous - field('Pss_Shmem'), pssFile: field('Pss_File') };
  } catch {
    return { total: 0, private: 0, file: 0, pssFile: 0 };
  }
}

/** The highest RSS seen until stopped, with that sample's split (memorySplitKb), in kB. */
export function startRssSampler(pid) {
  let peak = memorySplitKb(pid);
  const sample = () => {
    const now = rssKb(pid);
    // The cheap VmRSS every time; the split only at a new peak.
    if (now.total > peak.total) peak = memorySplitKb(pid);
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

/** The node process under `pid` (itself included) one of whose arguments ends with `script`, or undefined. */
export function descendantRunning(pid, script) {
  const children = new Map();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Exited meanwhile.
    }
  }
  for (const queue = [pid]; queue.length > 0;) {
    const next = queue.shift();
    try {
      const args = readFileSync(`/proc/${next}/cmdline`, 'utf8').split('\0');
      // Not the shell that runs the script line, which names the script too.
      const isNode = /^node/.test(basename(readlinkSync(`/proc/${next}/exe`)));
      if (isNode && args.some((arg) => arg.endsWith(script))) return next;
    } catch {
      // Exited meanwhile.
    }
    queue.push(...(children.get(next) ?? []));
  }
  return undefined;
}

/** How a running process was started: its executable and one variable of its environment (undefined when unset). */
export function startedAs(pid, variable) {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const value = env.find((entry) => entry.startsWith(`${variable}=`))?.slice(variable.length + 1);
    return { executable: readlinkSync(`/proc/${pid}/exe`), value };
  } catch {
    return { executable: undefined, value: undefined };
  }
}
