import { hashPassword, verifyPassword } from '../src/passwords';
import { hashToken, randomToken } from '../src/tokens';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('s3cret password', 10);
    expect(await verifyPassword('s3cret password', stored)).toBe(true);
    expect(await verifyPassword('s3cret passwore', stored)).toBe(false);
  });

  it('salts every hash, so one password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same', 10), hashPassword('same', 10)]);
    expect(a).not.toBe(b);
    expect(a.split('$')[4]).not.toBe(b.split('$')[4]);
  });

  it('keeps its parameters with the hash so a later cost still verifies old hashes', async () => {
    const old = await hashPassword('pw-12345678', 10);
    expect(old.split('$').slice(0, 4)).toEqual(['scrypt', '10', '8', '1']);
    expect(await verifyPassword('pw-12345678', old)).toBe(true);
  });

  it('refuses a stored value that is not an scrypt hash', async () => {
    expect(await verifyPassword('pw', 'plain-text')).toBe(false);
  });
});

describe('tokens', () => {
  it('are random, URL-safe and stored as a 64-hex-digit hash', () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
  });
});
