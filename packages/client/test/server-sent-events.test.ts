import { ServerSentEventParser } from '../src/server-sent-events.js';

/** The event stream read as the HTML standard reads it, whatever the chunks it arrives in. */

describe('ServerSentEventParser', () => {
  it('dispatches an event at its blank line, with its type, data and id', () => {
    const parser = new ServerSentEventParser();
    expect(parser.push('id: c1\nevent: change\ndata: {"id":1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'change', data: '{"id":1}', lastEventId: 'c1' }]);
  });

  it('reads the same events whatever the chunks are cut at, across CRLF, CR and LF line ends', () => {
    const text = '\uFEFFid: c1\r\nevent: change\r\ndata: a\r\n\r\n: keep-alive\r\rid: c2\rdata: b\rdata: c\r\r';
    const whole = new ServerSentEventParser().push(text);
    expect(whole).toEqual([
      { event: 'change', data: 'a', lastEventId: 'c1' },
      { event: 'message', data: 'b\nc', lastEventId: 'c2' },
    ]);
    for (let size = 1; size <= 7; size++) {
      const parser = new ServerSentEventParser();
      const events = [];
      for (let at = 0; at < text.length; at += size) events.push(...parser.push(text.slice(at, at + size)));
      expect(events).toEqual(whole);
    }
  });

  it('takes comments as nothing to dispatch, and a line without a colon as a field with no value', () => {
    const parser = new ServerSentEventParser();
    expect(parser.push(': keep-alive\n\n:\n\ndata\n\n')).toEqual([{ event: 'message', data: '', lastEventId: '' }]);
  });

  it('keeps the last id for later events, dispatches nothing for an event without data, ignores an id holding NUL', () => {
    const parser = new ServerSentEventParser();
    expect(parser.push('id: c7\n\ndata: x\n\nid: bad\0id\ndata: y\n\n')).toEqual([
      { event: 'message', data: 'x', lastEventId: 'c7' },
      { event: 'message', data: 'y', lastEventId: 'c7' },
    ]);
  });

  it('removes one space after the colon only, and ignores unknown fields and retry', () => {
    const parser = new ServerSentEventParser();
    expect(parser.push('data:  two spaces\nfoo: bar\nretry: 2500\nretry: soon\n\n')).toEqual([
      { event: 'message', data: ' two spaces', lastEventId: '' },
    ]);
  });

  it('does not dispatch an event the stream never ended with a blank line', () => {
    const parser = new ServerSentEventParser();
    expect(parser.push('id: c9\nevent: change\ndata: half')).toEqual([]);
    expect(parser.push('')).toEqual([]);
  });
});
