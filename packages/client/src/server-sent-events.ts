/** One event of a `text/event-stream`: its type (`message` unless named), its data, and the last event id seen. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
  /** The stream's last event id when this event was dispatched (an `id:` line sets it for this and later events). */
  readonly lastEventId: string;
}

/**
 * Reads a `text/event-stream` (the HTML standard's event stream interpretation) from text as it
 * arrives, in chunks cut anywhere. EventSource does this in a browser, but cannot send an
 * Authorization header: the client reads the stream from a fetch body instead. Comment lines
 * (`: …`) carry nothing but keep an idle stream alive; they dispatch nothing. An event not ended
 * by a blank line when the stream ends is dropped, as the standard says.
 */
export class ServerSentEventParser {
  private pending = '';
  private started = false;
  /** A chunk ended with CR: an LF starting the next one belongs to that line end. */
  private afterCarriageReturn = false;
  private eventType = '';
  private data: string[] = [];
  private lastEventId = '';

  /** The events that `chunk` completes. */
  push(chunk: string): ServerSentEvent[] {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    if (this.afterCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.afterCarriageReturn = text.endsWith('\r');
    const lines = (this.pending + text).split(/\r\n|\r|\n/);
    this.pending = lines.pop()!;
    const events: ServerSentEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      // `retry:` is not read: the client waits by its own backoff, as for any call.
    }
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const { data, eventType } = this;
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return undefined;
    return { event: eventType === '' ? 'message' : eventType, data: data.join('\n'), lastEventId: this.lastEventId };
  }
}
