import { tokenStateAt } from '@plantstore/domain';
import type { Command } from '../command.js';
import { parseOptions } from '../command.js';
import { formatTable, formatTime, printJson, printLines } from '../output.js';

export const tokenList: Command = {
  name: 'token list',
  usage: 'token list [--json]',
  summary: 'list API tokens with their status (never the tokens themselves)',
  help: [
    'Options:',
    '  --json  print one JSON array on the last line of stdout',
    '',
    'Status is active, expired or revoked. Tokens and their hashes are never printed.',
  ].join('\n'),

  parse(args) {
    const { values } = parseOptions(this, args, { options: { json: { type: 'boolean', default: false } } });

    return async (store) => {
      // ListTokens returns ApiToken, which has no hash; the fields below are still picked one by one
      // so that a field added to the type later is not printed by accident.
      const tokens = await store.listTokens.execute();
      const now = store.clock.now();
      if (values.json) {
        printJson(
          tokens.map((token) => ({
            id: token.id,
            name: token.name,
            scopes: token.scopes,
            createdAt: token.createdAt.toISOString(),
            expiresAt: token.expiresAt?.toISOString() ?? null,
            revokedAt: token.revokedAt?.toISOString() ?? null,
            status: tokenStateAt(token, now),
          })),
        );
        return;
      }
      if (tokens.length === 0) {
        printLines('No API tokens yet. Create one with: pnpm exec plantstore token create --name NAME');
        return;
      }
      printLines(
        formatTable(
          ['ID', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'STATUS'],
          tokens.map((token) => [
            token.id,
            token.name,
            token.scopes.join(' '),
            formatTime(token.createdAt),
            formatTime(token.expiresAt, 'never'),
            tokenStateAt(token, now),
          ]),
        ),
      );
    };
  },
};
