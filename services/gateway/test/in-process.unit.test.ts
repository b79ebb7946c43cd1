import { WHOLE_ANSWER_MAX_BYTES, readWhole } from '../src/in-process';

describe('readWhole: which in-process answers the gateway reads whole before passing them on', () => {
  const json = { 'content-type': 'application/json; charset=utf-8', 'content-length': '36496' };

  it('reads an answer of declared length whole', () => {
    expect(readWhole('POST', 200, json)).toBe(true);
    expect(readWhole('GET', 404, { ...json, 'content-length': 0 })).toBe(true);
    expect(readWhole('GET', 200, { ...json, 'content-length': String(WHOLE_ANSWER_MAX_BYTES) })).toBe(true);
  });

  it('streams an event stream, an answer of unknown or too large a length, and answers without a body', () => {
    expect(readWhole('GET', 200, { 'content-type': 'text/event-stream' })).toBe(false);
    const eventStream = { 'content-type': 'Text/Event-Stream; charset=utf-8', 'content-length': '10' };
    expect(readWhole('GET', 200, eventStream)).toBe(false);
    expect(readWhole('GET', 200, { 'content-type': 'text/event-stream', 'content-length': '10' })).toBe(
      false,
    );
    expect(readWhole('GET', 200, { 'content-type': 'application/json' })).toBe(false);
    expect(readWhole('GET', 200, { ...json, 'content-length': String(WHOLE_ANSWER_MAX_BYTES + 1) })).toBe(
      false,
    );
    expect(readWhole('GET', 200, { ...json, 'content-length': 'twelve' })).toBe(false);
    expect(readWhole('HEAD', 200, json)).toBe(false);
    expect(readWhole('GET', 204, json)).toBe(false);
    expect(readWhole('GET', 304, json)).toBe(false);
  });
});
