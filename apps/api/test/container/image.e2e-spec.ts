import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../../test-support/free-port.mjs';
import { repositoryRoot } from '../../../../test-support/repository-root.mjs';
import { reportSkipped } from '../../../../test-support/skipped.js';
import {
  commandLine,
  run,
  type ImageConfig,
  type MountedImage,
  mountImage,
  startEntryPoint,
  type RunningEntryPoint,
} from './support/image-run.js';

/**
 * The Dockerfile, built and run (README, "Running in a container"). Containers cannot be run
 * on these machines, but images can be built (buildah, chroot isolation): the image is built
 * on a locally made stand-in for node:26-bookworm, mounted, and its entry point started with
 * chroot as the image's user and environment. Slow (minutes): it runs in CI, or when
 * PLANTSTORE_TEST_CONTAINER=1; PLANTSTORE_TEST_CONTAINER=0 leaves it out even in CI (.ci/run
 * runs it in one of its two passes only).
 */
const flag = process.env['PLANTSTORE_TEST_CONTAINER'];
const enabled = flag === undefined || flag === '' ? process.env['CI'] === 'true' : flag === '1';
const BUILD_TIMEOUT_MS = 15 * 60_000;

if (!enabled) {
  reportSkipped(
    'the container image (build and run)',
    'PLANTSTORE_TEST_CONTAINER=1 or CI=true, as root with buildah, podman and debootstrap (pnpm test:container)',
  );
  describe('the container image', () => it.todo('needs PLANTSTORE_TEST_CONTAINER=1 or CI=true'));
} else {
  describe('the container image', () => {
    const runId = randomBytes(4).toString('hex');
    const baseImage = `localhost/plantstore-test-base:${runId}`;
    const runtimeBaseImage = `localhost/plantstore-test-runtime-base:${runId}`;
    const image = `localhost/plantstore-test:${runId}`;
    const workDir = mkdtempSync(join(tmpdir(), 'plantstore-image-'));
    let mounted: MountedImage | undefined;
    let config: ImageConfig;
    let server: RunningEntryPoint | undefined;

    beforeAll(async () => {
      await run('bash', [
        join(repositoryRoot, 'apps/api/test/container/make-stand-in-base.sh'),
        join(workDir, 'base'),
        baseImage,
        runtimeBaseImage,
      ]);
      rmSync(join(workDir, 'base'), { recursive: true, force: true });
      await run('buildah', [
        'bud',
        '--isolation=chroot',
        '--format=docker', // HEALTHCHECK is a Docker image setting; OCI images drop it
        '--layers=false',
        '--force-rm', // no build container left behind, even when a step fails
        '--pull=never', // both images are local; nothing is fetched from a registry
        `--build-arg=NODE_IMAGE=${baseImage}`,
        `--build-arg=RUNTIME_IMAGE=${runtimeBaseImage}`,
        `--tag=${image}`,
        repositoryRoot,
      ]);
      mounted = await mountImage(image);
      config = mounted.config;
    }, BUILD_TIMEOUT_MS);

    // Whatever failed, nothing is left behind: process, mounts, container, images, files.
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await mounted?.remove();
      for (const name of [image, baseImage, runtimeBaseImage])
        await run('podman', ['rmi', '--force', name]).catch(() => undefined);
      // A debootstrap that failed half-way may leave its /proc or /sys mounted in the work dir.
      for (const mountPoint of mountsUnder(workDir)) await run('umount', ['--lazy', mountPoint]).catch(() => undefined);
      rmSync(workDir, { recursive: true, force: true });
    }, 120_000);

    it('runs as an unprivileged user, listens on 0.0.0.0:3000 and keeps its SQLite data in the /data volume', () => {
      expect(config.User).toBe('node');
      expect(mounted!.uid).not.toBe(0);
      expect(config.Env).toEqual(
        expect.arrayContaining([
          'HOST=0.0.0.0',
          'PORT=3000',
          'DATABASE_URL=sqlite:/data/plantstore.sqlite',
          'MALLOC_ARENA_MAX=2',
        ]),
      );
      expect(Object.keys(config.ExposedPorts ?? {})).toEqual(['3000/tcp']);
      expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
      expect(config.Cmd).toEqual(['node', 'dist/main.js']);
      expect(config.Healthcheck?.Test.join(' ')).toContain('/healthz');
    });

    it("holds production dependencies only, with better-sqlite3's shipped binary for the image's platform", () => {
      const store = readdirSync(join(mounted!.root, 'app/api/node_modules/.pnpm'));
      for (const devOnly of [
        'typescript@',
        'jest@',
        'ts-jest@',
        'supertest@',
        'openapi-typescript@',
        '@types+jest@',
        '@types+better-sqlite3@',
        'node-linux-', // the project's own Node: the image's Node runs it
      ]) {
        expect(store.filter((entry) => entry.startsWith(devOnly))).toEqual([]);
      }
      const sqlite = store.find((entry) => entry.startsWith('better-sqlite3@'));
      expect(sqlite).toBeDefined();
      const binary = readFileSync(
        join(
          mounted!.root,
          'app/api/node_modules/.pnpm',
          sqlite!,
          `node_modules/better-sqlite3/prebuilds/linux-${process.arch}.node`,
        ),
      );
      expect(binary.subarray(1, 4).toString()).toBe('ELF');
    });

    it("carries nothing it does not run: one Swagger UI, no compilers, no other platforms' or sources of better-sqlite3", () => {
      const root = mounted!.root;
      for (const app of ['api', 'cli']) {
        const store = readdirSync(join(root, `app/${app}/node_modules/.pnpm`));
        expect(store.filter((entry) => entry.startsWith('swagger-ui-dist@'))).toHaveLength(app === 'api' ? 1 : 0);
        for (const sqlite of store.filter((entry) => entry.startsWith('better-sqlite3@'))) {
          const pkg = join(root, `app/${app}/node_modules/.pnpm`, sqlite, 'node_modules/better-sqlite3');
          expect(readdirSync(join(pkg, 'prebuilds'))).toEqual([`linux-${process.arch}.node`]);
          expect(['deps', 'src', 'build'].filter((dir) => existsSync(join(pkg, dir)))).toEqual([]);
        }
      }
      for (const tool of ['g++', 'gcc', 'cc', 'make', 'python3']) {
        // lstat: an absolute symlink in the image would resolve against this machine.
        const present = lstatSync(join(root, 'usr/bin', tool), { throwIfNoEntry: false }) !== undefined;
        expect({ tool, present }).toEqual({ tool, present: false });
      }
    });

    it('serves /healthz and the catalogue page and passes its HEALTHCHECK; a created plant survives a restart; SIGTERM ends it with status 0', async () => {
      const container = mounted!;
      const created = await container.exec(['plantstore', 'token', 'create', '--name', 'container-test', '--json']);
      const { token } = JSON.parse(created.trim().split('\n').at(-1)!) as { token: string };
      // The chroot shares this machine's network: the image's port 3000 may be taken here.
      const port = await freePort();
      const plant = '{"id": 9223372036854775807, "name": "Container fern"}';

      server = await startEntryPoint(container, { PORT: String(port) });
      expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toEqual({ status: 'ok' });
      await expectCataloguePage(`http://127.0.0.1:${port}`);
      await container.exec(commandLine(config.Healthcheck!.Test), { PORT: String(port) });
      const first = await postPlant(port, token, plant);
      expect(first).toEqual({ status: 200, body: '{"name":"Container fern"}' });
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });

      server = await startEntryPoint(container, { PORT: String(port) });
      expect(await postPlant(port, token, '{"id": 9223372036854775807, "name": "Another name"}')).toMatchObject({
        status: 409,
      });
      expect(await postPlant(port, token, plant)).toEqual({ status: 200, body: '{"name":"Container fern"}' });
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      server = undefined;
      expect(readdirSync(join(container.root, 'data'))).toContain('plantstore.sqlite');
    }, 120_000);
  });
}

/** `/` is the built page, and the script it names is served beside it. */
async function expectCataloguePage(url: string): Promise<void> {
  const page = await fetch(`${url}/`);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const script = /<script type="module" src="([^"]+)"/.exec(await page.text())?.[1];
  expect(script).toMatch(/^\/assets\/page-[A-Z0-9]+\.js$/);
  const asset = await fetch(`${url}${script!}`);
  expect({ status: asset.status, type: asset.headers.get('content-type') }).toEqual({
    status: 200,
    type: 'text/javascript; charset=utf-8',
  });
}

function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((mountPoint) => mountPoint.startsWith(`${dir}/`))
    .reverse();
}

async function postPlant(port: number, token: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: await response.text() };
}
