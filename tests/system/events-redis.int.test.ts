import { describeEventsKeepUp } from './events-suite';

describeEventsKeepUp('Redis Streams', async () => ({
  env: { EVENT_BUS: 'redis' },
  stop: async () => undefined,
}));
