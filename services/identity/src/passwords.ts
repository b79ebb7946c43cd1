import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

function scrypt(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  const N = 2 ** cost;
  return new Promise((resolve, reject) => {
    scryptCallback(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      // node refuses above 32 MiB by default; N 2^15 with r 8 needs exactly that plus a little.
      { N, r: BLOCK_SIZE, p: PARALLELISM, maxmem: 256 * N * BLOCK_SIZE },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/**
 * A memory-hard hash with a per-user salt, stored with its parameters
 * (`scrypt$<cost>$<r>$<p>$<salt>$<hash>`) so the cost can rise later without breaking old hashes.
 */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, , , salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), Number(cost));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash to check against when the email is unknown, so an unknown email takes as long to refuse
 * as a wrong password and timing does not reveal who has an account.
 */
export function dummyHash(cost: number): Promise<string> {
  return hashPassword(randomBytes(12).toString('hex'), cost);
}
