import { FEED_ORIGIN, type FeedPosition } from './feed-position.js';

/** A cursor is at most this long (URL-safe characters only). */
export const MAX_CURSOR_LENGTH = 100;

const FORMAT = '1';
const FIELD = /^-?[0-9a-z]+$/;

/**
 * A feed position as followers hold it: an opaque, URL-safe text (`[0-9a-z.-]`) with a
 * checksum, so that a cursor altered in transit or by hand is refused instead of read as
 * another position. Each position has exactly one cursor text.
 */
export const ChangeCursor = {
  /** Before every change: the cursor of a follower that starts from the beginning. */
  origin: encode(FEED_ORIGIN),

  encode,

  /** The position a cursor stands for, or undefined when this codec did not write it. */
  decode(text: string): FeedPosition | undefined {
    if (typeof text !== 'string' || text.length > MAX_CURSOR_LENGTH) return undefined;
    const parts = text.split('.');
    if (parts.length !== 5 || parts[0] !== FORMAT || !parts.every((part, i) => i === 0 || FIELD.test(part)))
      return undefined;
    const [, epoch, commit, id] = parts as [string, string, string, string, string];
    const position = { epoch: fromBase36(epoch), commit: fromBase36(commit), id: fromBase36(id) };
    if (position.epoch < 0n || position.commit < 0n) return undefined;
    // One text per position: anything that does not encode back to itself was not written here.
    return encode(position) === text ? position : undefined;
  },
};

function encode(position: FeedPosition): string {
  const body = [FORMAT, position.epoch, position.commit, position.id]
    .map((part) => (typeof part === 'bigint' ? part.toString(36) : part))
    .join('.');
  return `${body}.${checksum(body)}`;
}

function fromBase36(text: string): bigint {
  const negative = text.startsWith('-');
  let value = 0n;
  for (const digit of negative ? text.slice(1) : text) value = value * 36n + BigInt(parseInt(digit, 36));
  return negative ? -value : value;
}

/** FNV-1a (32 bits) of the text, in base 36: catches a changed, dropped or swapped character. */
function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}
