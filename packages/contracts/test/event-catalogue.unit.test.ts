import {
  DIP_EVENT_TYPES,
  EVENT_TYPES,
  IDENTITY_EVENT_TYPES,
  SEARCH_EVENT_TYPES,
  SHARING_EVENT_TYPES,
  deadLetterTopic,
} from '../src';

/** The operations console watches EVENT_TYPES and their dead letters. */
describe('the event catalogue', () => {
  it('holds every event a domain declares, once, so each one’s dead letters reach the operations console', () => {
    const declared = [IDENTITY_EVENT_TYPES, SEARCH_EVENT_TYPES, DIP_EVENT_TYPES, SHARING_EVENT_TYPES].flatMap(
      (types) => Object.values(types) as string[],
    );
    expect([...EVENT_TYPES].sort()).toEqual([...new Set(declared)].sort());
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
  });

  it('includes the password events', () => {
    expect(EVENT_TYPES).toEqual(
      expect.arrayContaining(['identity.password-reset.requested', 'identity.password.changed']),
    );
    expect(deadLetterTopic(IDENTITY_EVENT_TYPES.passwordChanged)).toBe('identity.password.changed.dlq');
  });
});
