import type { Command } from '../command.js';
import { parseOptions } from '../command.js';
import { printJson, printLines } from '../output.js';

// PlantCreated events (docs/storage.md#outbox): off in a new store, so that nobody pays for an
// outbox nobody relays; a server started with NATS_URL turns them on itself.

const jsonOption = { json: { type: 'boolean' } } as const;

export const eventsStatus: Command = {
  name: 'events status',
  usage: 'events status [--json]',
  summary: 'say whether PlantCreated events are on, and how many wait in the outbox',
  help: ['Options:', '  --json  print one JSON object: {"enabled": …, "waiting": …}'].join('\n'),
  parse(args) {
    const { values } = parseOptions(this, args, { options: jsonOption });
    return async (store) => {
      const enabled = await store.plantEvents.eventsEnabled();
      const waiting = (await store.plantEvents.backlog()).events;
      if (values.json) printJson({ enabled, waiting });
      else printLines(`PlantCreated events are ${enabled ? 'on' : 'off'}; ${waiting} waiting in the outbox.`);
    };
  },
};

export const eventsEnable: Command = {
  name: 'events enable',
  usage: 'events enable',
  summary: 'store a PlantCreated event for every plant created from now on',
  help: [
    'Plants stored before get no event: a consumer that needs them reads them once with',
    '`plants export`. A server started with NATS_URL turns events on by itself.',
  ].join('\n'),
  parse(args) {
    parseOptions(this, args, { options: {} });
    return async (store) => {
      const { changed, plants } = await store.plantEvents.enableEvents();
      printLines(
        changed
          ? `PlantCreated events are on. The ${plants} plant(s) stored before get no event (read them with \`plants export\`).`
          : 'PlantCreated events were already on; nothing changed.',
      );
    };
  },
};

export const eventsDisable: Command = {
  name: 'events disable',
  usage: 'events disable',
  summary: 'stop storing PlantCreated events, and discard those not yet published',
  help: [
    'For a store whose events nobody relays (no server runs with NATS_URL): the outbox stops',
    'growing and its events are deleted. A server started with NATS_URL turns events on again.',
  ].join('\n'),
  parse(args) {
    parseOptions(this, args, { options: {} });
    return async (store) => {
      const { changed, plants: discarded } = await store.plantEvents.disableEvents();
      printLines(
        `PlantCreated events ${changed ? 'are off' : 'were already off'}; ${discarded} unpublished event(s) discarded.`,
      );
    };
  },
};
