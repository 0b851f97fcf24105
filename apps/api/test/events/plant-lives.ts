import { deletePlant, putPlant } from '../support/change-requests.js';
import { postPlant } from '../support/plant-requests.js';

/*
 * A load of whole plant lives for the events suites: each plant is created, renamed, every
 * third one changed again under If-Match, every fourth one deleted, deleted again and created
 * again (which the tombstone refuses). A request left without an answer (the server killed)
 * or answered 503 is sent again, as a client would, to whichever server `target` names then.
 */

/** Every answer a life may get; anything else is a failure the test names. */
export const EXPECTED_ANSWERS = [
  'POST 200',
  'PUT 200',
  'PUT If-Match 200',
  'DELETE 204',
  'DELETE again 204',
  'POST deleted 409',
] as const;

/** How long a client keeps sending a request that got no answer or a 503: past any restart or outage of a run. */
const GIVE_UP_AFTER_MS = 60_000;
const ANSWER_WITHIN_MS = 10_000;

// supertest's request: every helper of the support answers one.
type Call = ReturnType<typeof postPlant>;
type Answer = Awaited<Call>;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface LivesOptions {
  readonly concurrency: number;
  /** A pause after each request, so a load meant to span a time window cannot end early on a fast machine. */
  readonly pauseMs?: number;
  /** Asked before each new plant: true stops the load once the lives under way are over. */
  readonly until?: () => boolean;
}

export class PlantLives {
  /** Requests answered (retries not counted). */
  answered = 0;
  /** Answers by step and status, retries included (`… retried`). */
  readonly statuses: Record<string, number> = {};
  /** The plants that were begun, and of those the ones deleted. */
  readonly begun: bigint[] = [];
  readonly deleted: bigint[] = [];
  readonly done: Promise<void>;

  constructor(
    private readonly target: (step: number) => string,
    private readonly token: string,
    ids: readonly bigint[],
    { concurrency, pauseMs = 0, until = () => false }: LivesOptions,
  ) {
    let next = 0;
    this.done = Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < ids.length && !until()) {
          const index = next++;
          await this.live(ids[index]!, index, pauseMs);
        }
      }),
    ).then(() => undefined);
  }

  /** Statuses that are not one of EXPECTED_ANSWERS nor a retry: empty when every life went as planned. */
  unexpected(): Record<string, number> {
    const expected = new Set<string>(EXPECTED_ANSWERS);
    return Object.fromEntries(
      Object.entries(this.statuses).filter(([outcome]) => !expected.has(outcome) && !outcome.endsWith(' retried')),
    );
  }

  private async live(id: bigint, index: number, pauseMs: number): Promise<void> {
    this.begun.push(id);
    const path = String(id);
    const created = `{"id":${id},"name":"plant ${id}","tag":"e2e"}`;
    const steps: Array<[string, (url: string) => Call]> = [
      ['POST', (url) => postPlant(url, this.token, created)],
      ['PUT', (url) => putPlant(url, this.token, path, `{"name":"renamed ${id}"}`)],
    ];
    let etag: string | undefined;
    for (let step = 0; step < steps.length; step++) {
      const [label, call] = steps[step]!;
      const answer = await this.send(label, call, step);
      etag = answer.headers['etag'];
      if (pauseMs > 0) await sleep(pauseMs);
    }
    if (index % 3 === 0) {
      const body = `{"name":"renamed ${id}","tag":"checked"}`;
      await this.send('PUT If-Match', (url) => putPlant(url, this.token, path, body, { 'If-Match': etag! }), 2);
      if (pauseMs > 0) await sleep(pauseMs);
    }
    if (index % 4 === 1) {
      await this.send('DELETE', (url) => deletePlant(url, this.token, path), 3);
      this.deleted.push(id);
      await this.send('DELETE again', (url) => deletePlant(url, this.token, path), 4);
      await this.send('POST deleted', (url) => postPlant(url, this.token, created), 5);
    }
  }

  /** Sends until the server answers anything but 503; a retried change that already holds answers as the first would. */
  private async send(label: string, call: (url: string) => Call, step: number): Promise<Answer> {
    const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
    for (;;) {
      const answer = await call(this.target(step))
        .timeout(ANSWER_WITHIN_MS)
        .then(
          (response) => response,
          () => undefined,
        );
      if (answer !== undefined && answer.status !== 503) {
        this.count(`${label} ${answer.status}`);
        this.answered++;
        return answer;
      }
      if (Date.now() > giveUpAt) throw new Error(`${label} of a plant got no answer within ${GIVE_UP_AFTER_MS} ms`);
      this.count(`${label} retried`);
      await sleep(100);
    }
  }

  private count(outcome: string): void {
    this.statuses[outcome] = (this.statuses[outcome] ?? 0) + 1;
  }
}
