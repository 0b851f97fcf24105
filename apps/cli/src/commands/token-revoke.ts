import { REVOCATION_BOUND_MS } from '@plantstore/domain';
import type { Command } from '../command.js';
import { parseOptions, UsageError, usageHint } from '../command.js';
import { printLines } from '../output.js';

// The servers' revocation bound (docs/tokens.md#revocation), told to operators so they know when it bites.
const REVOCATION_BOUND_SECONDS = REVOCATION_BOUND_MS / 1000;

export const tokenRevoke: Command = {
  name: 'token revoke',
  usage: 'token revoke <id>',
  summary: 'revoke an API token by id',
  help: [
    'Arguments:',
    '  <id>  the token id, as shown by `token list`',
    '',
    `Running servers refuse the token within ${REVOCATION_BOUND_SECONDS} s. Revoking twice keeps the first time.`,
  ].join('\n'),

  parse(args) {
    const { positionals } = parseOptions(this, args, { options: {}, allowPositionals: true });
    const [id, ...extra] = positionals;
    if (id === undefined) throw new UsageError('the token id is missing', usageHint(this));
    if (extra.length > 0) throw new UsageError(`expected one token id, got ${positionals.length}`, usageHint(this));

    return async (store) => {
      await store.revokeToken.execute(id);
      printLines(`Revoked token ${id}. Running servers refuse it within ${REVOCATION_BOUND_SECONDS} s.`);
    };
  },
};
