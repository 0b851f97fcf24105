// application/json or any +json type; a charset, if given, must be UTF-8 (RFC 8259 §8.1).
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;

export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  // What nearly every client sends: no need to split and lower-case it.
  if (header === 'application/json') return true;
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  if (!JSON_MEDIA_TYPE.test(type)) return false;
  return parameters.every((p) => !p.startsWith('charset=') || /^charset="?utf-8"?$/.test(p));
}
