#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { databaseConfigFor, DEFAULT_SQLITE_FILE, sqliteDirectoryProblem } from '@plantstore/adapters-persistence';
import { InvalidTokenRequestError, StorageUnavailableError, TokenNotFoundError } from '@plantstore/domain';
import { ExitCode, PROGRAM, UsageError, usageHint, type Command } from './command.js';
import { eventsDisable, eventsEnable, eventsStatus } from './commands/events.js';
import { plantsExport } from './commands/plants-export.js';
import { plantsImport } from './commands/plants-import.js';
import { tokenCreate } from './commands/token-create.js';
import { tokenList } from './commands/token-list.js';
import { tokenRevoke } from './commands/token-revoke.js';
import { openStore } from './open-store.js';

/** Every command, by the words that select it; a new command is one more entry. */
const COMMANDS = new Map<string, Command>(
  [tokenCreate, tokenList, tokenRevoke, plantsImport, plantsExport, eventsStatus, eventsEnable, eventsDisable].map(
    (command) => [command.name, command],
  ),
);

// This file runs as apps/cli/dist/main.js: the checkout it belongs to is three levels up,
// wherever the operator stands; its default database is there (databaseConfigFor).
const REPOSITORY_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// The package's own version, read at run time so it cannot drift from package.json.
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

const { ok: EXIT_OK, failed: EXIT_FAILED, usage: EXIT_USAGE } = ExitCode;

async function main(argv: string[]): Promise<number> {
  let command: Command | undefined;
  try {
    const selected = select(argv);
    if (selected.kind === 'print') {
      process.stdout.write(`${selected.text}\n`);
      return EXIT_OK;
    }
    command = selected.command;
    // Arguments first: a usage error must not create a database file or wait for a server.
    const action = command.parse(selected.args);
    const store = await openStore(databaseConfig());
    try {
      return (await action(store)) ?? EXIT_OK;
    } finally {
      await store.close();
    }
  } catch (error) {
    return report(error, command);
  }
}

type Selection = { kind: 'print'; text: string } | { kind: 'run'; command: Command; args: string[] };

/** Finds the command named by the leading words of argv, or the help or version asked for. */
function select(argv: string[]): Selection {
  const [first, second, ...rest] = argv;
  if (first === undefined) throw new UsageError('no command given');
  if (first === '--help' || first === '-h') return { kind: 'print', text: programHelp() };
  if (first === '--version' || first === '-V') {
    if (second !== undefined) throw new UsageError(`${first} takes no arguments`);
    return { kind: 'print', text: VERSION };
  }
  if (first === 'help') {
    if (second === undefined) return { kind: 'print', text: programHelp() };
    return { kind: 'print', text: helpFor(rest.length > 0 ? [second, ...rest] : [second]) };
  }
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  const command = second === undefined ? undefined : COMMANDS.get(`${first} ${second}`);
  if (command !== undefined) {
    return wantsHelp ? { kind: 'print', text: commandHelp(command) } : { kind: 'run', command, args: rest };
  }
  if (isGroup(first)) {
    if (wantsHelp && (second === undefined || second.startsWith('-'))) return { kind: 'print', text: groupHelp(first) };
    const problem =
      second === undefined || second.startsWith('-')
        ? `missing ${first} command`
        : `unknown ${first} command '${second}'`;
    const known = commandsOf(first).map((c) => c.name.split(' ')[1]);
    throw new UsageError(
      `${problem} (expected one of: ${known.join(', ')})`,
      `Run '${PROGRAM} ${first} --help' to see them.`,
    );
  }
  throw new UsageError(`unknown command '${first}'`);
}

function helpFor(words: string[]): string {
  const command = COMMANDS.get(words.join(' '));
  if (command !== undefined) return commandHelp(command);
  if (words.length === 1 && words[0] !== undefined && isGroup(words[0])) return groupHelp(words[0]);
  throw new UsageError(`no help for unknown command '${words.join(' ')}'`);
}

function isGroup(word: string): boolean {
  return commandsOf(word).length > 0;
}

function commandsOf(group: string): Command[] {
  return [...COMMANDS.values()].filter((command) => command.name.startsWith(`${group} `));
}

function synopsis(commands: Iterable<Command>): string {
  return [...commands].map((c) => `  ${PROGRAM} ${c.usage}\n      ${c.summary}`).join('\n');
}

function programHelp(): string {
  return [
    `${PROGRAM} ${VERSION}: admin tool of the Plant Store. From the repository root run it as \`pnpm exec ${PROGRAM} <command>\`.`,
    '',
    'Commands:',
    synopsis(COMMANDS.values()),
    `  ${PROGRAM} help [command]`,
    '      show this help, or the help of one command (as does <command> --help)',
    `  ${PROGRAM} --version`,
    '      print the version of the CLI (also -V)',
    '',
    'Environment:',
    '  DATABASE_URL      postgres://… or postgresql://… selects PostgreSQL; sqlite:<path> selects SQLite',
    '                    (a relative path is taken from the current directory); unset: SQLite at',
    `                    ${DEFAULT_SQLITE_FILE} under the repository root. Migrations are applied on open.`,
    '  PLANTSTORE_DEBUG  set to 1 to print stack traces of failures',
    '',
    'Exit status: 0 success, 1 the operation failed (for example an unknown token id, an',
    'unavailable database, or import lines that were rejected), 2 usage error, 130 interrupted.',
  ].join('\n');
}

function groupHelp(group: string): string {
  return [
    `Commands of ${PROGRAM} ${group}:`,
    synopsis(commandsOf(group)),
    '',
    `Run '${PROGRAM} ${group} <command> --help' for details.`,
  ].join('\n');
}

function commandHelp(command: Command): string {
  return [
    `Usage: ${PROGRAM} ${command.usage}`,
    '',
    `${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    command.help,
  ].join('\n');
}

function databaseConfig() {
  const hint = `See DATABASE_URL in '${PROGRAM} --help'.`;
  let config;
  try {
    config = databaseConfigFor(process.env['DATABASE_URL'], REPOSITORY_ROOT);
  } catch (error) {
    // parseDatabaseUrl's message names DATABASE_URL and never echoes the value (it may hold a password).
    throw new UsageError(error instanceof Error ? error.message : String(error), hint);
  }
  const problem = sqliteDirectoryProblem(config);
  if (problem !== undefined) throw new UsageError(problem, hint);
  return config;
}

/** The one place where failures become a message on stderr and an exit code. */
function report(error: unknown, command: Command | undefined): number {
  if (process.env['PLANTSTORE_DEBUG'] === '1') printStacks(error);
  if (error instanceof UsageError || error instanceof InvalidTokenRequestError) {
    const hint =
      (error instanceof UsageError ? error.hint : command && usageHint(command)) ??
      `Run '${PROGRAM} --help' to see the commands.`;
    process.stderr.write(`${PROGRAM}: ${error.message}\n${hint}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof TokenNotFoundError) {
    process.stderr.write(`${PROGRAM}: ${error.message} (see '${PROGRAM} token list')\n`);
    return EXIT_FAILED;
  }
  if (error instanceof StorageUnavailableError) {
    process.stderr.write(`${PROGRAM}: database unavailable: ${withCause(error)}\n`);
    return EXIT_FAILED;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${PROGRAM}: failed: ${message}\n`);
  return EXIT_FAILED;
}

// For the developer who asked: the whole chain, since the driver's error is usually the cause.
function printStacks(error: unknown): void {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    process.stderr.write(`${depth === 0 ? '' : 'Caused by: '}${e.stack ?? e.message}\n`);
  }
}

// A repository's StorageUnavailableError carries a generic message; the driver's reason is in the cause.
function withCause(error: Error): string {
  const cause = error.cause instanceof Error ? error.cause.message : '';
  return cause === '' || error.message.includes(cause) ? error.message : `${error.message} (${cause})`;
}

// `plantstore token list | head -1` closes the pipe early; that is not a failure worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await main(process.argv.slice(2));
