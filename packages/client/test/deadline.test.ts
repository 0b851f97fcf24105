import {
  DEFAULT_DEADLINE_MS,
  PlantStoreApiError,
  PlantStoreDeadlineError,
  PlantStoreNetworkError,
} from '../src/index.js';
import {
  apiError,
  connectionRefused,
  ok,
  refusedAfter,
  scripted,
  times,
  type Clock,
} from './support/scripted-fetch.js';

/**
 * How long a call keeps trying: a failure worth repeating is retried until the call's deadline
 * (its own, or the client's default), and the call then ends with a PlantStoreDeadlineError
 * whose message and fields say how long it tried, how many attempts it made, and the last
 * failure. The clock is the test's: attempts and waits move it, nothing is slept.
 */

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const plant = { id: 7n, name: 'Ficus' };
const plantsUrl = 'https://plants.example/api/plants';

async function deadlineFailure(call: Promise<unknown>): Promise<PlantStoreDeadlineError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlantStoreDeadlineError);
  return error as PlantStoreDeadlineError;
}

describe('with the server down', () => {
  it('a create with a 20 s deadline keeps trying until the deadline, then says how long, how often and why', async () => {
    const { client, sent, waits, clock } = scripted(times(500, connectionRefused), {
      retry: { baseDelayMs: 200, maxDelayMs: 5_000 },
    });
    const started = clock.now;
    const error = await deadlineFailure(client.createPlant(plant, { deadline: started + 20_000 }));
    expect(clock.now).toBe(started + 20_000); // it ends at the deadline, not before
    expect(sum(waits)).toBe(20_000);
    expect(sent.length).toBeGreaterThan(6);
    expect(new Set(sent.map((s) => s.init.body)).size).toBe(1);
    expect(error.attempts).toBe(sent.length);
    expect(error.elapsedMs).toBe(20_000);
    expect(error.message).toBe(
      `POST ${plantsUrl} gave up after 20000 ms and ${sent.length} attempts: ` +
        'its deadline passed, 20000 ms after the call began. ' +
        `The last failure: POST ${plantsUrl}: the connection failed`,
    );
    expect(error.cause).toBeInstanceOf(PlantStoreNetworkError);
    expect((error.cause as Error).cause).toBeInstanceOf(TypeError);
  });

  // Deadlines short and long, attempts failing quickly or after a while, any jitter.
  const cases = [1_500, 3_000, 20_000].flatMap((deadlineMs) =>
    [1, 37, 900].flatMap((attemptMs) => [0, 0.5, 1 - Number.EPSILON].map((jitter) => [deadlineMs, attemptMs, jitter])),
  );
  it.each(cases)(
    'the outcome does not depend on timing: with a %i ms deadline, attempts of %i ms and jitter %d, a PlantStoreDeadlineError at the deadline',
    async (deadlineMs, attemptMs, jitter) => {
      const clock: Clock = { now: 5_000_000 };
      const { client, sent } = scripted(times(30_000, refusedAfter(clock, attemptMs)), { random: () => jitter }, clock);
      const deadline = clock.now + deadlineMs;
      const error = await deadlineFailure(client.createPlant(plant, { deadline }));
      // A real attempt is cut at the deadline; a scripted one may run past it by its own length.
      expect(clock.now - deadline).toBeGreaterThanOrEqual(0);
      expect(clock.now - deadline).toBeLessThan(attemptMs);
      expect(error.attempts).toBe(sent.length);
      expect(error.elapsedMs).toBe(clock.now - (deadline - deadlineMs));
      expect(error.message).toContain(`gave up after ${error.elapsedMs} ms and ${sent.length} attempt`);
      expect(error.cause).toBeInstanceOf(PlantStoreNetworkError);
    },
  );

  it(`a call without a deadline keeps trying for the default deadline, ${DEFAULT_DEADLINE_MS} ms`, async () => {
    const { client, sent, clock } = scripted(times(500, connectionRefused));
    const started = clock.now;
    const error = await deadlineFailure(client.getPlant(7n));
    expect(DEFAULT_DEADLINE_MS).toBe(30_000);
    expect(clock.now - started).toBe(DEFAULT_DEADLINE_MS);
    expect(error.message).toContain(`GET ${plantsUrl}/7 gave up after 30000 ms and ${sent.length} attempts`);
    expect(error.message).toContain('its deadline passed, 30000 ms after the call began');
  });

  it('the client can set another default deadline', async () => {
    const { client, clock } = scripted(times(500, connectionRefused), { defaultDeadlineMs: 2_500 });
    const started = clock.now;
    await deadlineFailure(client.deletePlant(7n));
    expect(clock.now - started).toBe(2_500);
  });

  it('a call whose own deadline is later than the default keeps trying until its own', async () => {
    const { client, clock } = scripted(times(500, connectionRefused));
    const started = clock.now;
    await deadlineFailure(client.createPlant(plant, { deadline: new Date(started + 45_000) }));
    expect(clock.now - started).toBe(45_000);
  });
});

describe('waits and the deadline', () => {
  it('a backoff drawn past the deadline is cut to end at it, and no attempt follows', async () => {
    const { client, sent, waits, clock } = scripted(times(10, connectionRefused), {
      random: () => 1 - Number.EPSILON,
      retry: { baseDelayMs: 1_000, maxDelayMs: 10_000 },
    });
    const started = clock.now;
    const error = await deadlineFailure(client.createPlant(plant, { deadline: started + 2_500 }));
    // Backoffs just under 1000 and 2000: the second is cut to the 1500 ms that remain.
    expect(sent).toHaveLength(2);
    expect(waits.map(Math.round)).toEqual([1_000, 1_500]);
    expect(error.attempts).toBe(2);
    expect(error.message).toContain('its deadline passed, 2500 ms after the call began');
  });

  it('a Retry-After within the deadline is waited for', async () => {
    const { client, waits, clock } = scripted([apiError(503, 50301, 'draining', { 'retry-after': '4' }), ok()]);
    expect(await client.createPlant(plant, { deadline: clock.now + 5_000 })).toEqual({ name: 'Fern' });
    expect(waits).toEqual([4_000]);
  });

  it('a Retry-After past the deadline ends the call at once, saying so, with the 503 as cause', async () => {
    const { client, sent, waits, clock } = scripted([
      apiError(503, 50301, 'database unavailable', { 'retry-after': '10' }),
      ok(),
    ]);
    const error = await deadlineFailure(client.createPlant(plant, { deadline: new Date(clock.now + 5_000) }));
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error.message).toBe(
      `POST ${plantsUrl} gave up after 0 ms and 1 attempt: the server asked to wait 10000 ms (Retry-After), ` +
        'past the deadline 5000 ms away. The last failure: database unavailable',
    );
    expect(error.cause).toBeInstanceOf(PlantStoreApiError);
    expect(error.cause).toMatchObject({ status: 503, code: 50301, retryAfter: 10 });
  });

  it('a 429 whose Retry-After outlasts the deadline ends the same way, its retryAfter on the cause', async () => {
    const limited = apiError(429, 42901, 'rate limit exceeded', { 'retry-after': '3' });
    const { client, sent, clock } = scripted([limited, limited, limited]);
    const error = await deadlineFailure(client.createPlant(plant, { deadline: clock.now + 5_000 }));
    expect(sent).toHaveLength(2); // after 3 s, 2 s remain: less than the 3 s asked
    expect(error.cause).toMatchObject({ status: 429, code: 42901, retryAfter: 3 });
  });

  it('a deadline already past sends nothing', async () => {
    const { client, sent, clock } = scripted([ok()]);
    const error = await deadlineFailure(client.createPlant(plant, { deadline: clock.now }));
    expect(sent).toHaveLength(0);
    expect(error).toMatchObject({ attempts: 0, elapsedMs: 0 });
    expect(error.cause).toBeUndefined();
    expect(error.message).toBe(
      `POST ${plantsUrl} gave up after 0 ms and 0 attempts: its deadline had passed before it began.`,
    );
  });

  it('an answer that ends the call, after retries, ends it with that answer, not the deadline', async () => {
    const { client, sent, clock } = scripted([connectionRefused, apiError(503, 50301), apiError(409, 40901)]);
    await expect(client.createPlant(plant, { deadline: clock.now + 60_000 })).rejects.toMatchObject({
      status: 409,
      code: 40901,
    });
    expect(sent).toHaveLength(3);
  });

  it('within the deadline, a retry that is answered ends the call with the answer', async () => {
    const { client, sent, clock } = scripted([connectionRefused, ok()]);
    expect(await client.createPlant(plant, { deadline: clock.now + 5_000 })).toEqual({ name: 'Fern' });
    expect(sent).toHaveLength(2);
  });
});

it('an attempt gets no more than the time left before the deadline', async () => {
  // Real time here: the attempt's own timeout (10 s) is cut to what remains of a 150 ms deadline.
  const hang = (init: RequestInit) =>
    new Promise<Response>((_, reject) =>
      init.signal!.addEventListener('abort', () => reject(init.signal!.reason as Error)),
    );
  const { client, sent } = scripted([hang, hang], { now: Date.now, attemptTimeoutMs: 10_000 });
  const error = await deadlineFailure(client.getPlant(7n, { deadline: Date.now() + 150 }));
  expect(sent).toHaveLength(1);
  expect((error.cause as Error).message).toMatch(/^GET \S+: no answer within 1[0-5][0-9] ms$/);
});
