import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Running a built image without a container runtime: `buildah from` + `buildah mount` give
 * its file system, and `chroot` starts a command in it as the image's user, in its working
 * directory, with exactly its environment (the image config's User, WorkingDir, Env). The
 * chroot shares this machine's network and process namespaces.
 */

/** The Docker image config fields this test reads (`buildah inspect --type image`). */
export interface ImageConfig {
  readonly User: string;
  readonly Env: string[];
  readonly WorkingDir: string;
  readonly Cmd: string[];
  readonly Entrypoint?: string[] | null;
  readonly ExposedPorts?: Record<string, unknown>;
  readonly Volumes?: Record<string, unknown>;
  readonly Healthcheck?: { readonly Test: string[] };
}

/** Runs a command to completion; resolves with stdout, rejects with the end of its output. */
export function run(command: string, args: readonly string[], timeoutMs = 15 * 60_000): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error === null) return done(stdout);
        fail(new Error(`${command} ${args.join(' ')} failed (${error.message}):\n${(stdout + stderr).slice(-4_000)}`));
      },
    );
  });
}

/** The argv of a HEALTHCHECK test: ["CMD", ...argv] or ["CMD-SHELL", "command"]. */
export function commandLine(test: readonly string[]): string[] {
  const [kind, ...rest] = test;
  if (kind === 'CMD') return rest;
  if (kind === 'CMD-SHELL') return ['/bin/sh', '-c', rest.join(' ')];
  throw new Error(`unexpected healthcheck test ${JSON.stringify(test)}`);
}

export interface MountedImage {
  /** Where the image's file system is mounted (a working container's root). */
  readonly root: string;
  readonly config: ImageConfig;
  /** The numeric user and group of config.User, from the image's own /etc/passwd. */
  readonly uid: number;
  readonly gid: number;
  /** `argv` inside the image, as its user, with its environment plus `env`; resolves with stdout. */
  exec(argv: readonly string[], env?: Record<string, string>): Promise<string>;
  /** The chroot's command line for `argv`. */
  chrootArgs(argv: readonly string[], env?: Record<string, string>): string[];
  /** Unmounts everything and removes the working container. */
  remove(): Promise<void>;
}

export async function mountImage(image: string): Promise<MountedImage> {
  const container = (await run('buildah', ['from', '--pull=never', image])).trim();
  const mounts: string[] = [];
  const remove = async () => {
    for (const mountPoint of mounts.reverse()) await run('umount', ['--lazy', mountPoint]).catch(() => undefined);
    await run('buildah', ['umount', container]).catch(() => undefined);
    await run('buildah', ['rm', container]).catch(() => undefined);
  };
  try {
    const root = (await run('buildah', ['mount', container])).trim();
    const [inspected] = [
      JSON.parse(await run('buildah', ['inspect', '--type', 'image', image])) as { Docker: { config: ImageConfig } },
    ];
    const config = inspected.Docker.config;
    // Node and the metrics read /proc; /dev/null and /dev/urandom are expected by everyone.
    for (const [args, mountPoint] of [
      [['-t', 'proc', 'proc'], join(root, 'proc')],
      [['--bind', '/dev'], join(root, 'dev')],
    ] as const) {
      await run('mount', [...args, mountPoint]);
      mounts.push(mountPoint);
    }
    const { uid, gid } = userOf(root, config.User);
    const chrootArgs = (argv: readonly string[], env: Record<string, string> = {}) => [
      `--userspec=${uid}:${gid}`,
      root,
      '/usr/bin/env',
      '-i',
      `--chdir=${config.WorkingDir || '/'}`,
      ...withOverrides(config.Env, env),
      ...argv,
    ];
    return {
      root,
      config,
      uid,
      gid,
      chrootArgs,
      exec: (argv, env) => run('chroot', chrootArgs(argv, env), 60_000),
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}

function userOf(root: string, user: string): { uid: number; gid: number } {
  const [name, group] = user.split(':');
  const line = readFileSync(join(root, 'etc/passwd'), 'utf8')
    .split('\n')
    .find((entry) => entry.split(':')[0] === name || entry.split(':')[2] === name);
  if (line === undefined) throw new Error(`user ${user} is not in the image's /etc/passwd`);
  const fields = line.split(':');
  return {
    uid: Number(fields[2]),
    gid: group !== undefined && /^[0-9]+$/.test(group) ? Number(group) : Number(fields[3]),
  };
}

function withOverrides(env: readonly string[], overrides: Record<string, string>): string[] {
  const kept = env.filter((entry) => !(entry.split('=')[0]! in overrides));
  return [...kept, ...Object.entries(overrides).map(([key, value]) => `${key}=${value}`)];
}

export interface RunningEntryPoint {
  /** Sends `signal` and resolves with how the process ended (SIGKILL after 20 s). */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The image's entry point (Entrypoint + Cmd) under chroot, resolved once GET /healthz on
 * 127.0.0.1:PORT answers 200. chroot and env exec into the command, so signals reach it.
 */
export async function startEntryPoint(
  image: MountedImage,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<RunningEntryPoint> {
  const argv = [...(image.config.Entrypoint ?? []), ...image.config.Cmd];
  const child = spawn('chroot', image.chrootArgs(argv, env), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const running: RunningEntryPoint = {
    async stop(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      const escalate = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const outcome = await exited;
      clearTimeout(escalate);
      return outcome;
    },
  };
  const port = env['PORT'] ?? '3000';
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the image's entry point exited with ${child.exitCode}: ${stderr}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return running;
    if (Date.now() > until) {
      await running.stop('SIGKILL');
      throw new Error(`the image's entry point did not answer /healthz within ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
}
