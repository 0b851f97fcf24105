import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { useTestApp } from '../support/test-app.js';
import { repositoryRoot } from '../../../../test-support/repository-root.mjs';
import { expectErrorContract, JSON_UTF8 } from './support/contract.js';
import { expectedOutcome, parseStrictJson, type ExpectedPlant } from './support/oracle.js';
import { exchange, postBytes, type Exchange } from '../support/raw-exchange.js';

/**
 * The parsing cases of JSONTestSuite (MIT; kept beside the JSON reader's own tests in
 * packages/json-reader/test/fixtures/json-test-suite, see its SOURCE.md), each sent as a
 * POST /plants body with a valid token: the contract over HTTP. n_ must be refused, y_ are
 * valid JSON (400 unless a valid NewPlant), i_ are implementation-defined (never a 5xx or a hang).
 */
const CORPUS = resolve(repositoryRoot, 'packages/json-reader/test/fixtures/json-test-suite');
/** Every file of the upstream test_parsing folder: a lost file must fail the suite, not shrink it. */
const CORPUS_FILES = 318;
const BODY_LIMIT = 65_536;

interface Case {
  readonly file: string;
  readonly kind: 'n' | 'y' | 'i';
  readonly body: Buffer;
}

function loadCorpus(): Case[] {
  const cases = readdirSync(CORPUS)
    .filter((file) => /^[nyi]_.*\.json$/.test(file))
    .sort()
    .map((file) => ({ file, kind: file[0] as Case['kind'], body: readFileSync(join(CORPUS, file)) }));
  if (cases.length !== CORPUS_FILES)
    throw new Error(`expected ${CORPUS_FILES} corpus files in ${CORPUS}, found ${cases.length}`);
  return cases;
}

describe('the JSONTestSuite corpus as POST /plants bodies', () => {
  const t = useTestApp({ BODY_LIMIT_BYTES: String(BODY_LIMIT) });
  const corpus = loadCorpus();
  const results = new Map<string, Exchange>();

  beforeAll(async () => {
    // One request per file, each on its own connection without keep-alive, bounded in time.
    for (const c of corpus) {
      const sent = postBytes(c.body, { authorization: `Bearer ${t.token}`, contentType: 'application/json' });
      results.set(c.file, await exchange(t.url, sent, { deadlineMs: 10_000, stopAfterResponses: 1 }));
    }
    const tally = (kind: Case['kind']) => {
      const files = corpus.filter((c) => c.kind === kind);
      const byOutcome = new Map<string, number>();
      for (const c of files) {
        const response = results.get(c.file)?.responses[0];
        const outcome =
          response === undefined
            ? 'no response'
            : response.status === 200
              ? '200'
              : (/"error":(\d+)/.exec(response.text)?.[1] ?? String(response.status));
        byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
      }
      return `${kind}_: ${files.length} (${[...byOutcome].map(([o, n]) => `${n}× ${o}`).join(', ')})`;
    };
    console.log(`JSONTestSuite corpus: ${corpus.length} files sent; ${tally('n')}; ${tally('y')}; ${tally('i')}`);
  }, 120_000);

  it('has the three kinds of the public suite', () => {
    for (const kind of ['n', 'y', 'i'] as const)
      expect(corpus.filter((c) => c.kind === kind).length).toBeGreaterThan(0);
  });

  it('the test oracle agrees with the suite: it refuses every n_ file and accepts the syntax of every y_ file', () => {
    for (const c of corpus.filter((x) => x.body.length <= BODY_LIMIT)) {
      const parsed = parseStrictJson(c.body);
      if (c.kind === 'n') expect({ file: c.file, ok: parsed.ok }).toEqual({ file: c.file, ok: false });
      // The one y_ refusal the contract allows: a key repeated with a different value (README decision).
      if (c.kind === 'y')
        expect({ file: c.file, ok: parsed.ok || parsed.reason === 'duplicate-key' }).toEqual({
          file: c.file,
          ok: true,
        });
    }
  });

  function responseTo(c: Case) {
    const result = results.get(c.file)!;
    const [response] = result.responses;
    if (!response) throw new Error(`${c.file}: no response (connection ${result.ending})`);
    return response;
  }

  it('every n_ file is a 400 Error body (40001 or 40002), or 413/41301 when larger than the body limit', () => {
    for (const c of corpus.filter((x) => x.kind === 'n')) {
      const response = responseTo(c);
      const code = expectErrorContract(response, c.file);
      if (c.body.length > BODY_LIMIT)
        expect({ file: c.file, status: response.status, code }).toEqual({ file: c.file, status: 413, code: 41301 });
      else
        expect({ file: c.file, status: response.status, refused: [40001, 40002].includes(code) }).toEqual({
          file: c.file,
          status: 400,
          refused: true,
        });
    }
  });

  it('every y_ file is a 400 unless it is a valid NewPlant: 40002 for a non-object, 40003 with the exact field problems for an object, 40001 for a key repeated with another value', () => {
    for (const c of corpus.filter((x) => x.kind === 'y')) {
      const response = responseTo(c);
      const expected = expectedOutcome(c.body, BODY_LIMIT);
      if (expected.status === 200) {
        expect({ file: c.file, status: response.status }).toEqual({ file: c.file, status: 200 });
        continue;
      }
      const code = expectErrorContract(response, c.file);
      const actual = { file: c.file, status: response.status, code, message: JSON.parse(response.text).message };
      if (expected.error === 40003)
        expect(actual).toEqual({ file: c.file, status: 400, code: 40003, message: expected.message });
      else
        expect({ ...actual, message: undefined }).toEqual({
          file: c.file,
          status: expected.status,
          code: expected.error,
          message: undefined,
        });
    }
  });

  it('every i_ file is answered with a 4xx Error body or a 200, never a 5xx, a dropped connection or a hang', () => {
    for (const c of corpus.filter((x) => x.kind === 'i')) {
      const response = responseTo(c);
      if (response.status === 200) {
        expect({ file: c.file, type: response.headers['content-type'] }).toEqual({ file: c.file, type: JSON_UTF8 });
        continue;
      }
      expectErrorContract(response, c.file);
      expect({ file: c.file, clientError: response.status >= 400 && response.status < 500 }).toEqual({
        file: c.file,
        clientError: true,
      });
    }
  });

  it('afterwards the store holds exactly the plants of bodies that were valid NewPlants', async () => {
    const valid: ExpectedPlant[] = [];
    for (const c of corpus) {
      const expected = expectedOutcome(c.body, BODY_LIMIT);
      if (expected.status === 200 && responseTo(c).status === 200) valid.push(expected.plant);
    }
    const byId = (a: { id: string }, b: { id: string }) =>
      BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0;
    const rows = (await t.plants()).sort(byId);
    expect(rows).toEqual(valid.map((p) => ({ id: p.id.toString(), name: p.name, tag: p.tag ?? null })).sort(byId));
  });

  it('nesting as deep as the body limit allows: a 400 Error body (or 200 when only an ignored property is deep), never a 5xx', async () => {
    const depth = 25_000;
    const deepArray = '['.repeat(depth) + ']'.repeat(depth);
    const deepObject = '{"a":'.repeat(depth / 5) + '1' + '}'.repeat(depth / 5);
    const cases = [
      { body: deepArray, allowed: [40001, 40002] },
      { body: deepObject, allowed: [40001, 40003] },
      { body: `{"id": 2000001, "name": "deep array", "extra": ${deepArray}}`, allowed: [40001, 200] },
      { body: `{"id": 2000002, "name": "deep object", "extra": ${deepObject}}`, allowed: [40001, 200] },
    ];
    for (const c of cases) {
      expect(Buffer.byteLength(c.body)).toBeLessThanOrEqual(BODY_LIMIT);
      const result = await exchange(
        t.url,
        postBytes(c.body, { authorization: `Bearer ${t.token}`, contentType: 'application/json' }),
        { deadlineMs: 10_000, stopAfterResponses: 1 },
      );
      const response = result.responses[0];
      if (!response) throw new Error(`no response to a deeply nested body (connection ${result.ending})`);
      const outcome = response.status === 200 ? 200 : expectErrorContract(response);
      expect(c.allowed).toContain(outcome);
      if (outcome === 200) expect((await t.plants()).some((p) => p.name === JSON.parse(response.text).name)).toBe(true);
    }
    await t.dataSource.query('DELETE FROM plant WHERE id IN (2000001, 2000002)');
  });

  it('every y_ value is accepted as an ignored extra property of a valid NewPlant (stored without it)', async () => {
    let id = 1_000_000;
    const sent: Array<{ file: string; id: number; expected: number }> = [];
    for (const c of corpus.filter((x) => x.kind === 'y')) {
      id += 1;
      const body = Buffer.concat([
        Buffer.from(`{"id": ${id}, "name": "corpus ${c.file}", "extra": `),
        c.body,
        Buffer.from('}'),
      ]);
      const expected = expectedOutcome(body, BODY_LIMIT);
      const result = await exchange(
        t.url,
        postBytes(body, { authorization: `Bearer ${t.token}`, contentType: 'application/json' }),
        {
          deadlineMs: 10_000,
          stopAfterResponses: 1,
        },
      );
      const response = result.responses[0];
      expect({ file: c.file, status: response?.status }).toEqual({ file: c.file, status: expected.status });
      if (response && response.status !== 200) expectErrorContract(response, c.file);
      if (response?.status === 200) expect(JSON.parse(response.text)).toEqual({ name: `corpus ${c.file}` });
      sent.push({ file: c.file, id, expected: expected.status });
    }
    const stored = new Map((await t.plants()).map((row) => [row.id, row]));
    for (const s of sent.filter((x) => x.expected === 200)) {
      expect(stored.get(String(s.id))).toEqual({ id: String(s.id), name: `corpus ${s.file}`, tag: null });
    }
    expect(stored.size).toBe(sent.filter((x) => x.expected === 200).length);
  }, 60_000);
});
