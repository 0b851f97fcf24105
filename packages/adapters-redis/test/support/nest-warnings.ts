import { ConsoleLogger, Logger } from '@nestjs/common';

/**
 * Collects what reaches Nest's Logger as warnings (the limiter reports each change of state
 * there) instead of printing it; `release` gives Nest a console logger back.
 */
export function collectNestWarnings(): { readonly lines: string[]; release(): void } {
  const lines: string[] = [];
  const ignore = () => undefined;
  Logger.overrideLogger({ log: ignore, error: ignore, warn: (message: unknown) => void lines.push(String(message)) });
  return { lines, release: () => Logger.overrideLogger(new ConsoleLogger()) };
}
