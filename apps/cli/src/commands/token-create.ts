import { checkTokenRequest } from '@plantstore/domain';
import type { Command } from '../command.js';
import { parseOptions, UsageError, usageHint } from '../command.js';
import { formatTime, printJson, printLines } from '../output.js';
import { parseDuration } from '../parse-duration.js';

export const tokenCreate: Command = {
  name: 'token create',
  usage: 'token create --name NAME [--scope SCOPE]... [--expires-in DURATION] [--json]',
  summary: 'create an API token and print it once',
  help: [
    'Options:',
    '  --name NAME            what the token is for (1 to 100 characters), required',
    '  --scope SCOPE          plants:write (create) or plants:read (read, list); repeat for',
    '                         several; without it the token gets both',
    '  --expires-in DURATION  lifetime as <number><unit>, unit s, m, h or d (90s, 15m, 12h, 30d);',
    '                         without it the token does not expire',
    '  --json                 print one JSON object on the last line of stdout',
    '',
    'The token is printed only here; the store keeps a SHA-256 hash of it.',
  ].join('\n'),

  parse(args) {
    const { values } = parseOptions(this, args, {
      options: {
        name: { type: 'string' },
        scope: { type: 'string', multiple: true },
        'expires-in': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    const { name, scope: scopes, 'expires-in': expiresIn, json } = values;
    if (name === undefined) throw new UsageError('--name is required', usageHint(this));
    const lifetimeMs = expiresIn === undefined ? undefined : parseDuration(expiresIn);
    if (expiresIn !== undefined && lifetimeMs === undefined) {
      throw new UsageError(
        `--expires-in must be a positive whole number followed by s, m, h or d (got '${expiresIn}')`,
        usageHint(this),
      );
    }
    const request = { name, scopes, expiresInMs: lifetimeMs };
    // The domain's own checks (name, scope names, an expiry past the year 9999), now: a refused
    // request must not create a database. The use case checks again, counting the lifetime from
    // the instant it stamps as the token's creation.
    checkTokenRequest(request, new Date());

    return async (store) => {
      const { token, plaintext } = await store.issueToken.execute(request);
      if (json) {
        printJson({
          id: token.id,
          name: token.name,
          token: plaintext,
          scopes: token.scopes,
          createdAt: token.createdAt.toISOString(),
          expiresAt: token.expiresAt?.toISOString() ?? null,
        });
        return;
      }
      printLines(
        'Created API token',
        `  id:       ${token.id}`,
        `  name:     ${token.name}`,
        `  scopes:   ${token.scopes.join(' ')}`,
        `  created:  ${formatTime(token.createdAt)}`,
        `  expires:  ${formatTime(token.expiresAt, 'never')}`,
        '',
        `  ${plaintext}`,
        '',
        'This token is shown only once: store it now. Only its hash is kept, so it cannot be shown again.',
        'Send it as: Authorization: Bearer <token>',
      );
    };
  },
};
