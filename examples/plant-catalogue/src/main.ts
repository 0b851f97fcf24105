import { PlantCatalogue } from './catalogue.js';
import { followPlantEvents } from './plant-events.js';

// NATS_URL, CATALOGUE_PATH and CATALOGUE_DURABLE choose the broker, the projection's file and the consumer.
const catalogue = new PlantCatalogue(process.env['CATALOGUE_PATH'] ?? 'plant-catalogue.sqlite');
const following = await followPlantEvents(catalogue, {
  servers: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
  durable: process.env['CATALOGUE_DURABLE'] ?? 'plant-catalogue',
  log: (line) => console.error(line),
});
const report = setInterval(() => console.log(JSON.stringify({ plants: catalogue.count(), ...following })), 5_000);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    clearInterval(report);
    void following.stop().then(() => {
      console.log(
        JSON.stringify({
          plants: catalogue.count(),
          applied: following.applied,
          duplicates: following.duplicates,
          early: following.early,
        }),
      );
      catalogue.close();
    });
  });
