import { LineCount } from '../../src/plants/line-count.js';

async function* chunks(...texts: string[]) {
  for (const text of texts) yield Buffer.from(text);
}

async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const entry = (line: number) => ({ line, source: undefined, unreadable: 'x' });

describe('LineCount', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['a\n', 1],
    ['a\n\nb\n', 3],
    ['a\r\n\r\nb', 3],
    ['a\n\n\n', 3],
  ])('counts %j as %i lines, blank ones included', async (text, lines) => {
    const count = new LineCount();
    await drain(count.ofBytes(chunks(...text.split(/(?<=\n)/))));
    expect(count.read).toBe(lines);
  });

  it('maps the entries an import has taken to the line the last of them came from', async () => {
    const count = new LineCount();
    async function* groups() {
      yield [entry(1), entry(2), entry(4)];
      expect(count.through(3)).toBe(4);
      yield [entry(7), entry(9)];
    }
    const seen: unknown[] = [];
    for await (const group of count.ofEntries(groups())) {
      seen.push(group);
      if (seen.length === 2) {
        expect(count.through(0)).toBe(0);
        expect(count.through(4)).toBe(7);
        expect(count.through(5)).toBe(9);
      }
    }
    expect(seen).toHaveLength(2);
  });
});
