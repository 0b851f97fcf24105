import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { useTestApp } from '../support/test-app.js';

describe('GET /openapi.json: the served contract', () => {
  const t = useTestApp();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the served document, walked as plain JSON
  let document: Record<string, any>;

  beforeAll(async () => {
    const res = await request(t.url).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    document = res.body;
  });

  it('is a valid OpenAPI 3.1 document (checked by a validator of the OpenAPI schema)', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document['openapi']).toMatch(/^3\.1\./);
  });

  it('carries the version and license of the spec', () => {
    expect(document['info']).toMatchObject({ version: '1.0.0', license: { name: 'MIT' } });
  });

  it('defines Plant, NewPlant (Plant plus a required int64 id) and Error as the spec does', () => {
    const { Plant, NewPlant, Error } = document['components'].schemas;
    expect(Plant).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, tag: { type: 'string' } },
    });
    expect(Object.keys(Plant.properties)).toEqual(['name', 'tag']);
    expect(NewPlant.required).toEqual(['id', 'name']);
    expect(NewPlant.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(Error).toMatchObject({
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
    });
  });

  it('requires bearer auth on POST /plants and lists every status it can answer, each failure with the Error schema', () => {
    expect(document['components'].securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    const create = document['paths']['/plants'].post;
    expect(create.security).toEqual([{ bearerAuth: [] }]);
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/NewPlant' });
    expect(Object.keys(create.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '405',
      '408',
      '409',
      '413',
      '415',
      '429',
      '431',
      '500',
      '501',
      '503',
      '505',
    ]);
    expect(create.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Plant' });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see `document`
    for (const [status, response] of Object.entries<any>(create.responses)) {
      if (status !== '200')
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
  });

  it('describes GET /plants/{id} and GET /plants: bearer auth, parameters, bodies and every failure', () => {
    const get = document['paths']['/plants/{id}'].get;
    const list = document['paths']['/plants'].get;
    expect([get.operationId, list.operationId]).toEqual(['getPlant', 'listPlants']);
    expect([get.security, list.security]).toEqual([[{ bearerAuth: [] }], [{ bearerAuth: [] }]]);
    expect(Object.keys(get.responses).sort()).toEqual(
      ['200', '304', '400', '401', '403', '404', '408', '410', '429', '431', '500', '503'].sort(),
    );
    expect(Object.keys(list.responses).sort()).toEqual(
      ['200', '400', '401', '403', '408', '429', '431', '500', '503'].sort(),
    );
    expect(get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Plant' });
    expect(Object.keys(get.responses['200'].headers)).toEqual(['ETag']);
    expect(get.responses['404'].content['application/json'].example).toEqual({
      error: 40402,
      message: 'There is no plant with id 42.',
    });
    expect(get.responses['400'].content['application/json'].example.error).toBe(40004);
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/PlantListItem' },
    });
    expect(Object.keys(list.responses['200'].headers)).toEqual(['Link', 'Feed-Cursor']);
    expect(list.responses['200'].headers['Feed-Cursor'].schema).toEqual({
      type: 'string',
      maxLength: 100,
      pattern: '^[0-9a-z.-]+$',
    });
    expect(document['components'].schemas.PlantListItem).toEqual(
      expect.objectContaining({
        required: ['id', 'name'],
        additionalProperties: false,
        properties: expect.objectContaining({ id: expect.objectContaining({ type: 'integer', format: 'int64' }) }),
      }),
    );
    type Parameter = { in: string; name: string; required?: boolean };
    expect((get.parameters as Parameter[]).map((p) => [p.in, p.name]).sort()).toEqual([
      ['header', 'If-None-Match'],
      ['path', 'id'],
    ]);
    expect((list.parameters as Parameter[]).map((p) => [p.in, p.name, p.required])).toEqual([
      ['query', 'tags', false],
      ['query', 'name', false],
      ['query', 'limit', false],
      ['query', 'after', false],
    ]);
    const name = (list.parameters as Array<Parameter & { schema: unknown }>).find((p) => p.name === 'name');
    expect(name?.schema).toEqual({ type: 'string', minLength: 1, maxLength: 200 });
  });

  it('describes PUT and DELETE /plants/{id}: If-Match, their bodies and every failure, 410 and 412 included', () => {
    const replace = document['paths']['/plants/{id}'].put;
    const remove = document['paths']['/plants/{id}'].delete;
    expect([replace.operationId, remove.operationId]).toEqual(['replacePlant', 'deletePlant']);
    expect([replace.security, remove.security]).toEqual([[{ bearerAuth: [] }], [{ bearerAuth: [] }]]);
    expect(Object.keys(replace.responses).sort()).toEqual(
      ['200', '400', '401', '403', '404', '408', '410', '412', '413', '415', '429', '431', '500', '501', '503'].sort(),
    );
    expect(Object.keys(remove.responses).sort()).toEqual(
      ['204', '400', '401', '403', '404', '408', '412', '429', '431', '500', '503'].sort(),
    );
    expect(replace.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PlantReplacement',
    });
    expect(replace.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Plant' });
    expect(Object.keys(replace.responses['200'].headers)).toEqual(['ETag']);
    expect(replace.responses['412'].content['application/json'].example.error).toBe(41201);
    expect(replace.responses['410'].content['application/json'].example.error).toBe(41001);
    expect(remove.responses['204'].content).toBeUndefined();
    type Parameter = { in: string; name: string };
    for (const operation of [replace, remove])
      expect((operation.parameters as Parameter[]).map((p) => [p.in, p.name]).sort()).toEqual([
        ['header', 'If-Match'],
        ['path', 'id'],
      ]);
  });

  it('states the error-code table in its description', () => {
    for (const code of [
      40000, 40001, 40002, 40003, 40004, 40101, 40102, 40301, 40401, 40402, 40501, 40801, 40901, 40902, 41001, 41201,
      41301, 41501, 42901, 43101, 50001, 50101, 50301, 50501,
    ]) {
      expect(document['info'].description).toContain(`| ${code} |`);
    }
  });

  it('leaves the operational endpoints public (no security requirement)', () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs']) {
      expect(document['paths'][path].get.security).toEqual([]);
    }
  });
});
