import {
  DIP_EVENTS,
  EVENT_DEFINITIONS,
  EVENT_TYPES,
  EVENT_TYPES_OF_DOMAIN,
  IDENTITY_EVENTS,
  eventEnvelopeSchema,
} from '../src';

const registered = {
  userId: 'user-1',
  email: 'ana@example.com',
  name: 'Ana',
  source: 'register' as const,
  registeredAt: '2026-11-28T10:00:00.000Z',
};

describe('defineEvent', () => {
  it('builds an envelope from the producer, the subject and the versioned dataschema', () => {
    const now = new Date('2026-11-28T10:00:01.000Z');
    const envelope = IDENTITY_EVENTS.registered.envelope(registered, { correlationId: 'req-1', now });
    expect(eventEnvelopeSchema.parse(envelope)).toMatchObject({
      type: 'identity.user.registered',
      source: '/services/identity',
      subject: 'user-1',
      dataschema: '/schemas/identity.user.registered/v1',
      correlationId: 'req-1',
      time: '2026-11-28T10:00:01.000Z',
    });
    expect(envelope.data).toEqual(registered);
  });

  it('refuses to build an envelope whose data breaks the contract', () => {
    expect(() =>
      IDENTITY_EVENTS.registered.envelope({ ...registered, source: 'elsewhere' as 'register' }),
    ).toThrow();
  });

  it('reads the data of its own type back, parsed, and refuses another type', () => {
    const envelope = IDENTITY_EVENTS.registered.envelope(registered);
    expect(IDENTITY_EVENTS.registered.read(envelope)).toEqual(registered);
    expect(() => IDENTITY_EVENTS.verified.read(envelope)).toThrow(/expected a identity.user.verified event/);
    expect(() => IDENTITY_EVENTS.registered.read({ ...envelope, data: { userId: 'user-1' } })).toThrow();
  });

  it('takes a product change event’s subject from its owner', () => {
    const envelope = DIP_EVENTS.productChanged.envelope({
      userId: 'owner-7',
      panelVersion: 'v2',
      changedAt: '2026-11-28T10:00:00.000Z',
      dips: [
        {
          dipId: '6f1c3a8e-8f43-4a57-9a7c-0d6f8e2b1c11',
          quoteCode: 'Q-1',
          lenderName: 'Lender',
          productName: 'Product',
          change: 'withdrawn',
        },
      ],
    });
    expect(envelope.subject).toBe('owner-7');
  });
});

describe('the event definitions', () => {
  it('define every catalogued type once, each published by the domain that declares it', () => {
    expect(EVENT_DEFINITIONS.map((d) => d.type).sort()).toEqual([...EVENT_TYPES].sort());
    for (const [domain, types] of Object.entries(EVENT_TYPES_OF_DOMAIN)) {
      for (const type of Object.values(types)) {
        expect({ type, producer: EVENT_DEFINITIONS.find((d) => d.type === type)?.producer }).toEqual({
          type,
          producer: domain,
        });
      }
    }
  });
});
