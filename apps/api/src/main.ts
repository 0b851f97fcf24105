import { tuneV8ForServing, tuneV8BeforeStart } from './v8-memory.js';

// V8's memory settings come first and the server is loaded only after them, so they apply to
// all of it, whether it runs as `pnpm start` or as a bare `node apps/api/dist/main.js`.
tuneV8BeforeStart();
const { startServer } = await import('./server.js');
await startServer();
tuneV8ForServing();
