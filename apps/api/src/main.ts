import { restartWithProcessStartSettings } from './process-start-settings.js';
import { tuneV8ForServing, tuneV8BeforeStart } from './v8-memory.js';

// The settings read only when a process starts first (they may restart it), then V8's
// run-time memory settings; the server is loaded only after them, so they apply to all of it,
// whether it runs as `pnpm start` or as a bare `node apps/api/dist/main.js`.
restartWithProcessStartSettings();
tuneV8BeforeStart();
const { startServer } = await import('./server.js');
await startServer();
tuneV8ForServing();
