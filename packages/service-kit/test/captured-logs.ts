import { Writable } from 'node:stream';
import { createLogger } from '../src';

/** A logger for `service` at `level` whose records a test reads back from `lines`, one string a write. */
export function loggerCapturingLines(service: string, level = 'info') {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger(service, level, sink), lines };
}
