// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text (RFC 9110 §8.8.3)
const ENTITY_TAG_SOURCE = '(?:W/)?"[\\x21\\x23-\\x7E\\x80-\\xFF]*"';

/** One entity tag, as an ETag header carries it. */
export const ENTITY_TAG = new RegExp(`^${ENTITY_TAG_SOURCE}$`);

/** An If-Match field value: `*`, or entity tags separated by commas (RFC 9110 §13.1.1). */
export const IF_MATCH = new RegExp(`^(?:\\*|${ENTITY_TAG_SOURCE}(?:[ \\t]*,[ \\t]*${ENTITY_TAG_SOURCE})*)$`);
