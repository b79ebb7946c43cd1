import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
/** r and p of new hashes (OWASP's scrypt minimum: N = 2^17, r = 8, p = 1). */
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
/** Bounds on parameters read back from a stored hash, so a damaged record cannot ask for gigabytes. */
const MIN_COST = 10;
const MAX_COST = 20;
/** scrypt needs 128 * N * r * p bytes: never more than 1 GiB, whatever a stored hash says. */
const MAX_MEMORY_BYTES = 2 ** 30;

interface ScryptParams {
  cost: number;
  r: number;
  p: number;
}

function scrypt(password: string, salt: Buffer, { cost, r, p }: ScryptParams): Promise<Buffer> {
  const N = 2 ** cost;
  return new Promise((resolve, reject) => {
    scryptCallback(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      // node refuses above 32 MiB by default; scrypt needs 128 * N * r * p bytes (128 MiB at N 2^17, r 8),
      // so allow twice that.
      { N, r, p, maxmem: 256 * N * r * p },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** The parameters a stored hash was made with, or null when it is not one of ours. */
export function hashParams(stored: string): ScryptParams | null {
  const [scheme, cost, r, p, salt, hash] = stored.split('$');
  const params = { cost: Number(cost), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !hash) return null;
  if (!Number.isInteger(params.cost) || params.cost < MIN_COST || params.cost > MAX_COST) return null;
  if (!Number.isInteger(params.r) || params.r < 1 || params.r > 32) return null;
  if (!Number.isInteger(params.p) || params.p < 1 || params.p > 16) return null;
  if (128 * 2 ** params.cost * params.r * params.p > MAX_MEMORY_BYTES) return null;
  return params;
}

/**
 * A memory-hard hash with a per-user salt, stored with its parameters
 * (`scrypt$<cost>$<r>$<p>$<salt>$<hash>`) so the cost can rise later without breaking old hashes.
 */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { cost, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks a password against a stored hash, with the parameters stored in it. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const params = hashParams(stored);
  if (!params) return false;
  const [, , , , salt, hash] = stored.split('$') as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), params);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * True when a stored hash is weaker than what new hashes get (a lower cost, other r or p, or not
 * ours): sign-in then stores a new hash of the password it has just checked.
 */
export function needsRehash(stored: string, cost: number): boolean {
  const params = hashParams(stored);
  return !params || params.cost < cost || params.r !== BLOCK_SIZE || params.p !== PARALLELISM;
}

/**
 * A hash to check against when the email is unknown, so an unknown email takes as long to refuse
 * as a wrong password and timing does not reveal who has an account.
 */
export function dummyHash(cost: number): Promise<string> {
  return hashPassword(randomBytes(12).toString('hex'), cost);
}
