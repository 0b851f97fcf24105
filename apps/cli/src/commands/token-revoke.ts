import { REVOCATION_BOUND_MS, TokenNotFoundError } from '@plantstore/domain';
import type { Command } from '../command.js';
import { parseOptions, UsageError, usageHint } from '../command.js';
import { formatTime, printLines } from '../output.js';

// The servers' revocation bound (docs/tokens.md#revocation), told to operators so they know when it bites.
const REVOCATION_BOUND_SECONDS = REVOCATION_BOUND_MS / 1000;

// Token ids are UUIDs (randomUUID when issued); anything else is a typo, told before the database is opened.
const TOKEN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const tokenRevoke: Command = {
  name: 'token revoke',
  usage: 'token revoke <id>',
  summary: 'revoke an API token by id',
  help: [
    'Arguments:',
    '  <id>  the token id, as shown by `token list`',
    '',
    `Running servers refuse the token within ${REVOCATION_BOUND_SECONDS} s. Revoking a revoked token changes`,
    'nothing: it says when the token was revoked and exits 0, so a script may revoke twice.',
  ].join('\n'),

  parse(args) {
    const { positionals } = parseOptions(this, args, { options: {}, allowPositionals: true });
    const [id, ...extra] = positionals;
    if (id === undefined) throw new UsageError('the token id is missing', usageHint(this));
    if (extra.length > 0) throw new UsageError(`expected one token id, got ${positionals.length}`, usageHint(this));
    if (!TOKEN_ID.test(id))
      throw new UsageError(
        `${JSON.stringify(id)} is not a token id (a UUID, as \`token list\` shows it)`,
        usageHint(this),
      );

    return async (store) => {
      // Read first, so a second revoke can say when the first one was. RevokeToken keeps the
      // first time anyway: a concurrent revoke at worst makes both say "Revoked".
      const token = (await store.listTokens.execute()).find((candidate) => candidate.id === id);
      if (token === undefined) throw new TokenNotFoundError(id);
      if (token.revokedAt !== undefined) {
        printLines(`Token ${id} was already revoked at ${formatTime(token.revokedAt)}; nothing changed.`);
        return;
      }
      const { outcome } = await store.revokeToken.execute(id);
      if (outcome === 'not-found') throw new TokenNotFoundError(id);
      printLines(`Revoked token ${id}. Running servers refuse it within ${REVOCATION_BOUND_SECONDS} s.`);
    };
  },
};
