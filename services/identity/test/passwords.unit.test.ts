import { hashParams, hashPassword, needsRehash, verifyPassword } from '../src/domain/passwords';
import { hashToken, randomToken } from '../src/domain/tokens';

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

describe('rehash and stored parameters', () => {
  it('asks for a rehash of a cheaper hash, or one with other r or p, but not of an equal or dearer one', async () => {
    const stored = await hashPassword('pw-12345678', 11);
    expect(needsRehash(stored, 12)).toBe(true);
    expect(needsRehash(stored, 11)).toBe(false);
    expect(needsRehash(stored, 10)).toBe(false);
    const [scheme, cost, , , salt, hash] = stored.split('$');
    expect(needsRehash([scheme, cost, 4, 1, salt, hash].join('$'), 11)).toBe(true);
    expect(needsRehash('plain-text', 11)).toBe(true);
  });

  it('refuses parameters that would ask for more than 1 GiB, so a damaged record cannot exhaust memory', async () => {
    const [, , , , salt, hash] = (await hashPassword('pw', 10)).split('$');
    expect(hashParams(`scrypt$20$8$1$${salt}$${hash}`)).toEqual({ cost: 20, r: 8, p: 1 });
    expect(hashParams(`scrypt$20$32$16$${salt}$${hash}`)).toBeNull();
    expect(hashParams(`scrypt$21$8$1$${salt}$${hash}`)).toBeNull();
    expect(await verifyPassword('pw', `scrypt$20$32$16$${salt}$${hash}`)).toBe(false);
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
