import { chosenCoding, compressibleType, varyWith } from '../src/compression';

describe('compression rules', () => {
  it('compresses text, JSON, JavaScript and XML, never event streams or binary types', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/problem+json',
      'text/html; charset=utf-8',
      'text/css',
      'application/javascript',
      'image/svg+xml',
      'application/xml',
    ])
      expect(compressibleType(type)).toBe(true);
    for (const type of [
      'text/event-stream; charset=utf-8',
      'application/pdf',
      'image/png',
      'application/zip',
      'application/octet-stream',
      'font/woff2',
    ])
      expect(compressibleType(type)).toBe(false);
  });

  it('prefers brotli, honours q-values and refuses what is not produced', () => {
    expect(chosenCoding('gzip, deflate, br')).toBe('br');
    expect(chosenCoding('gzip')).toBe('gzip');
    expect(chosenCoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(chosenCoding('br;q=0, gzip')).toBe('gzip');
    expect(chosenCoding('deflate')).toBeNull();
    expect(chosenCoding('identity')).toBeNull();
    expect(chosenCoding('')).toBeNull();
    expect(chosenCoding(undefined)).toBeNull();
  });

  it('adds Accept-Encoding to Vary once', () => {
    expect(varyWith(undefined, 'Accept-Encoding')).toBe('Accept-Encoding');
    expect(varyWith('Origin', 'Accept-Encoding')).toBe('Origin, Accept-Encoding');
    expect(varyWith('origin, accept-encoding', 'Accept-Encoding')).toBe('origin, accept-encoding');
    expect(varyWith('*', 'Accept-Encoding')).toBe('*');
  });
});
