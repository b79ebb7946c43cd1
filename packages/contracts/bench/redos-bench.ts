// Request validation under adversarial text: how long the slowest field of
// every request schema takes to refuse a 1 MB value built to make a backtracking pattern work hard,
// and what the spec's email pattern would have taken on the same kind of input. Prints figures;
// asserts nothing (the test beside it proves no pattern ever reads over-long text).
import type { z } from 'zod';
import * as contracts from '../src';

const MB = 1024 * 1024;
const fill = (unit: string, length = MB) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const ADVERSARIAL = [
  'a@' + '.'.repeat(MB - 3) + '@',
  'a@' + fill('a.', MB - 3) + ' ',
  fill('1', MB - 1) + 'x',
  fill('1,', MB),
  '£' + fill('9', MB - 1),
];

type Schema = z.ZodType;
const schemas = Object.entries(contracts).filter(
  ([name, value]) =>
    /(Body|Query|Params|Form|Search)Schema$/.test(name) &&
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value,
) as Array<[string, Schema]>;

/** Top-level fields only: nested ones are reached through the same string rules. */
function fields(schema: Schema): string[] {
  const def = (schema as unknown as { _zod: { def: { type: string; shape?: object } } })._zod.def;
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

function millis(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

let worst = { ms: 0, where: '' };
let checks = 0;
const started = performance.now();
for (const [name, schema] of schemas) {
  for (const field of fields(schema)) {
    for (const value of ADVERSARIAL) {
      const ms = millis(() => schema.safeParse({ [field]: value }));
      checks += 1;
      if (ms > worst.ms) worst = { ms, where: `${name}.${field}` };
    }
  }
}
const total = performance.now() - started;

// The spec's pattern on a 20,000-dot address (1 MB would take minutes): the cost the fix removed.
const SPEC_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const oldMs = millis(() => SPEC_EMAIL.test('a@' + '.'.repeat(20_000) + '@'));
const newMs = millis(() => contracts.EMAIL_TEXT_PATTERN.test('a@' + '.'.repeat(20_000) + '@'));

console.log(`request schemas: ${schemas.length}, adversarial 1 MB values refused: ${checks}`);
console.log(
  `slowest refusal: ${worst.ms.toFixed(2)} ms (${worst.where}); all together ${total.toFixed(0)} ms`,
);
console.log(
  `email pattern on 'a@' + 20,000 dots + '@': spec pattern ${oldMs.toFixed(0)} ms, linear pattern ${newMs.toFixed(2)} ms`,
);
