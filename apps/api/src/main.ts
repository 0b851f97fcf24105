import { restartWithMallocArenaLimit } from './malloc-arenas.js';
import { tuneV8ForServing, tuneV8BeforeStart } from './v8-memory.js';

// glibc's malloc setting first (it may restart the process), then V8's memory settings; the
// server is loaded only after them, so they apply to all of it, whether it runs as
// `pnpm start` or as a bare `node apps/api/dist/main.js`.
restartWithMallocArenaLimit();
tuneV8BeforeStart();
const { startServer } = await import('./server.js');
await startServer();
tuneV8ForServing();
