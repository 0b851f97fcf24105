import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Store } from './open-store.js';

/** The exit statuses the help promises. */
export const ExitCode = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** The name the CLI goes by in messages (the `bin` of package.json). */
export const PROGRAM = 'plantstore';

/**
 * One CLI command. `parse` checks the arguments before the database is opened, so a typo
 * never creates a database file or waits for a connection; the action it returns does the work.
 */
export interface Command {
  /** Words that select the command, for example `token create`. */
  readonly name: string;
  /** The synopsis after the program name, for example `token revoke <id>`. */
  readonly usage: string;
  readonly summary: string;
  /** Details shown by `--help` after the synopsis. */
  readonly help: string;
  /** The action resolves to the exit status when it is not plain success (0). */
  parse(args: string[]): (store: Store) => Promise<number | void>;
}

/** The operator typed something the CLI cannot run: exit 2 with a usage hint. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** One line pointing at the right usage; the top-level help when absent. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

export function usageHint(command: Command): string {
  return `Usage: ${PROGRAM} ${command.usage} (see '${PROGRAM} ${command.name} --help')`;
}

/** node's parseArgs in strict mode, its errors turned into one-line usage errors. */
export function parseOptions<T extends Omit<ParseArgsConfig, 'args' | 'strict'>>(
  command: Command,
  args: string[],
  config: T,
): ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>> {
  try {
    return parseArgs({ ...config, args, strict: true });
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new UsageError(
      message.replace(/\. This command does not take positional arguments$/, ''),
      usageHint(command),
    );
  }
}
