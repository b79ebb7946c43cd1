import { type EventEnvelope, createEnvelope, dataschemaOf } from '@lsp/contracts';
import { type Subscription, instanceSubscription } from '../src/events/types';

/** What a subscription's handler is handed (`type dataschema`), of the envelopes delivered to it. */
async function handedOf(subscription: Omit<Subscription, 'handler'>, delivered: EventEnvelope[]) {
  const handed: string[] = [];
  const adapted = instanceSubscription(
    {
      ...subscription,
      handler: async (envelope) => void handed.push(`${envelope.type} ${envelope.dataschema}`),
    },
    'instance-1',
  );
  for (const envelope of delivered) await adapted.handler(envelope, { attempt: 1 });
  return handed;
}

const event = (type: string, version?: number) =>
  createEnvelope('dip', {
    type,
    subject: 'd1',
    data: {},
    ...(version ? { dataschema: dataschemaOf(type, version) } : {}),
  });

describe('a subscription reads the payload version it declares', () => {
  const delivered = [event('dip.created', 1), event('dip.created', 2), event('dip.revoked')];
  const types = ['dip.created', 'dip.revoked'];

  it('hands over only the version it reads while a producer publishes two', async () => {
    expect(await handedOf({ consumerGroup: 'sharing', types, readsVersion: 1 }, delivered)).toEqual([
      'dip.created /schemas/dip.created/v1',
      'dip.revoked /schemas/dip.revoked/v1',
    ]);
    expect(await handedOf({ consumerGroup: 'sharing', types, readsVersion: 2 }, delivered)).toEqual([
      'dip.created /schemas/dip.created/v2',
    ]);
  });

  it('hands over every version when it declares none (the dead-letter collector)', async () => {
    expect(await handedOf({ consumerGroup: 'ops', types }, delivered)).toHaveLength(3);
  });

  it('keeps the version on an every-instance subscription', async () => {
    const panel = [event('panel.activated', 1), event('panel.activated', 3)];
    expect(
      await handedOf(
        { consumerGroup: 'search', types: ['panel.activated'], everyInstance: true, readsVersion: 1 },
        panel,
      ),
    ).toEqual(['panel.activated /schemas/panel.activated/v1']);
  });
});
