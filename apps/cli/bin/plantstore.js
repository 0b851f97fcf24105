#!/usr/bin/env node
// The `bin` of this package: a committed file, because pnpm links bins at install time,
// before `pnpm build` has made dist/ (a bin inside dist/ is skipped in a fresh clone).
try {
  await import('../dist/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/main.js')) throw error;
  process.stderr.write('plantstore: not built yet; run `pnpm build` at the repository root first.\n');
  process.exitCode = 1;
}
