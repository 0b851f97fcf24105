import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import request from 'supertest';
import { useTestApp } from '../support/test-app.js';

/**
 * The served document against two widely used rule sets, offline (the document has no
 * external $ref; @redocly/openapi-core sends no telemetry, only its CLI does). No rule is
 * switched off.
 */
describe('GET /openapi.json: lint rules of the API tooling', () => {
  const t = useTestApp();
  let source: string;

  beforeAll(async () => {
    const res = await request(t.url).get('/openapi.json');
    expect(res.status).toBe(200);
    source = res.text;
  });

  it("passes Redocly's recommended rules without an error or a warning", async () => {
    const problems = await lintFromString({
      source,
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual(
      [],
    );
  });

  it("passes Spectral's oas ruleset without an error or a warning", async () => {
    const spectral = new Spectral();
    // The ruleset's published type is narrower than the one setRuleset declares.
    spectral.setRuleset(oas as RulesetDefinition);
    const results = await spectral.run(source);
    expect(results.map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });
});
