import type { z } from 'zod';
import * as contracts from '../src';
import { EMAIL_TEXT_PATTERN, NUMERIC_TEXT_PATTERN, jsonProblem } from '../src';
import { type FuzzPath, schemaFieldPaths } from '@lsp/testing';

/**
 * ReDoS: a 1 MB adversarial value in any field of any request schema is refused
 * without a regular expression ever reading it. The request schemas are found in the package's exports
 * by name (`…BodySchema`, `…QuerySchema`, `…ParamsSchema`, `…FormSchema`, `…SearchSchema`) plus the
 * offer schema saved searches are checked with, so a schema added later is covered without editing
 * this file. Speed itself is measured by packages/contracts/bench/redos-bench.ts, not here.
 */

const REQUEST_SCHEMA_NAME = /(Body|Query|Params|Form|Search)Schema$/;
const ALSO_FROM_REQUESTS = ['loanOfferSchema'];
/** The most characters any pattern of a request schema may be handed (the longest capped text). */
const PATTERN_INPUT_LIMIT = contracts.EMAIL_MAX_LENGTH;

type Schema = z.ZodType;
type Path = FuzzPath;

const requestSchemas: Array<[string, Schema]> = Object.entries(contracts)
  .filter(([name]) => REQUEST_SCHEMA_NAME.test(name) || ALSO_FROM_REQUESTS.includes(name))
  .filter(([, value]) => typeof value === 'object' && value !== null && '_zod' in value)
  .map(([name, value]) => [name, value as Schema]);

const uniquePaths = (paths: Path[]) => [...new Map(paths.map((p) => [p.join('.'), p])).values()];

function withValueAt(path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [withValueAt(rest, value)] : { [head]: withValueAt(rest, value) };
}

const MB = 1024 * 1024;
const fill = (unit: string, length = MB) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const ADVERSARIAL: Record<string, string> = {
  'email backtracking': 'a@' + '.'.repeat(MB - 3) + '@',
  'email long domain': 'a@' + fill('a.', MB - 3) + ' ',
  'digits then a letter': fill('1', MB - 1) + 'x',
  'digits and separators': fill('1,', MB),
  'digits, dots and spaces': fill('1. ', MB),
  'pound signs and digits': '£' + fill('9', MB - 1),
  'lone surrogates, RTL, zero-width, NUL': fill('\uD800\u202E\u200B\u0000\uDC00a'),
  whitespace: fill(' \t\n'),
};

/**
 * Whether a pattern repeats anything (outside character classes and escapes). A pattern that does not
 * (zod's own one-character surrogate probe, for example) does constant work per position: linear by
 * construction, so only quantified patterns are held to the length limit.
 */
function quantified(pattern: RegExp): boolean {
  const source = pattern.source;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i += 1;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '*' || c === '+' || c === '?' || c === '{') return true;
  }
  return false;
}

/** Runs fn while counting what RegExp#exec (behind test, match, replace, split) is handed. */
function regexUse<T>(fn: () => T): { result: T | Error; calls: number; longest: number } {
  const original = RegExp.prototype.exec;
  let calls = 0;
  let longest = 0;
  RegExp.prototype.exec = function exec(this: RegExp, input: string) {
    const length = String(input).length;
    if (quantified(this)) {
      calls += 1;
      longest = Math.max(longest, length);
      // Never run such a pattern on over-long text: before the fix this is where a request stalled.
      if (length > PATTERN_INPUT_LIMIT) throw new Error(`pattern ${this} handed ${length} characters`);
    }
    return original.call(this, input);
  };
  try {
    return { result: fn(), calls, longest };
  } catch (err) {
    return { result: err as Error, calls, longest };
  } finally {
    RegExp.prototype.exec = original;
  }
}

describe('request schemas under 1 MB adversarial values', () => {
  it('finds the request schemas and their fields', () => {
    const names = requestSchemas.map(([name]) => name);
    expect(names).toEqual(
      expect.arrayContaining([
        'loginBodySchema',
        'registerBodySchema',
        'leadBodySchema',
        'saveSearchBodySchema',
        'developmentSearchSchema',
        'bridgingSearchSchema',
        'commercialSearchSchema',
        'createDipBodySchema',
        'dipApplicationBodySchema',
        'targetedShareBodySchema',
        'dealShareBodySchema',
        'referralBodySchema',
        'shareFunnelBodySchema',
      ]),
    );
    expect(names.some((name) => /ResponseSchema$|EventSchema$/.test(name))).toBe(false);
    const fields = requestSchemas.flatMap(([, schema]) => uniquePaths(schemaFieldPaths(schema)));
    expect(fields.length).toBeGreaterThan(200);
  });

  describe.each(requestSchemas)('%s', (_name, schema) => {
    const paths = uniquePaths(schemaFieldPaths(schema));
    it.each(paths.map((path) => [path.join('.'), path] as const))(
      'refuses every adversarial value in %s before any pattern reads it',
      (_label, path) => {
        for (const [kind, value] of Object.entries(ADVERSARIAL)) {
          const use = regexUse(() => schema.safeParse(withValueAt(path, value)));
          expect({ kind, error: use.result instanceof Error ? use.result.message : null }).toEqual({
            kind,
            error: null,
          });
          expect(use.longest).toBeLessThanOrEqual(PATTERN_INPUT_LIMIT);
          const result = use.result as ReturnType<Schema['safeParse']>;
          expect(result.success).toBe(false);
          // The field itself is refused, not only the rest of the (otherwise empty) body.
          const refusedHere = (result.error?.issues ?? []).some((issue) =>
            path.every((part, i) => String(issue.path[i]) === String(part)),
          );
          expect({ kind, field: path.join('.'), refusedHere }).toEqual({
            kind,
            field: path.join('.'),
            refusedHere: true,
          });
        }
      },
    );
  });
});

describe('the linear patterns', () => {
  /** The spec's email rule as it was written (quadratic when it fails): the language to keep. */
  const SPEC_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
  const SPEC_NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)$/;

  function* strings(alphabet: string[], maxLength: number): Generator<string> {
    let layer = [''];
    yield '';
    for (let length = 1; length <= maxLength; length++) {
      const next: string[] = [];
      for (const prefix of layer) for (const c of alphabet) next.push(prefix + c);
      yield* next;
      layer = next;
    }
  }

  it('accept exactly the addresses the spec pattern accepts (every string of 8 or fewer of a . @ space)', () => {
    let checked = 0;
    for (const s of strings(['a', '.', '@', ' '], 8)) {
      expect([s, EMAIL_TEXT_PATTERN.test(s)]).toEqual([s, SPEC_EMAIL.test(s)]);
      checked += 1;
    }
    expect(checked).toBe(87381);
  });

  it('accept exactly the numeric text the old pattern accepted (every string of 6 or fewer of 1 . + -)', () => {
    for (const s of strings(['1', '.', '+', '-', 'x'], 6)) {
      expect([s, NUMERIC_TEXT_PATTERN.test(s)]).toEqual([s, SPEC_NUMERIC.test(s)]);
    }
  });

  it('keeps the display rules reading long text as no number without a pattern', () => {
    const use = regexUse(() => contracts.parseNumber(fill('1') + 'x'));
    expect(use.result).toBeNull();
    expect(use.calls).toBe(0);
    expect(contracts.parseNumber('£1,250.50')).toBe(1250.5);
  });
});

describe('free-form JSON fields', () => {
  it.each([
    ['a $-key', { $where: 'sleep(1000)' }, "a key starting with '$'"],
    ['a nested $-key', { a: [{ b: { $gt: '' } }] }, "a key starting with '$'"],
    ['a dotted key', { 'a.b': 1 }, 'a key containing a dot'],
    ['__proto__', JSON.parse('{"__proto__": {"polluted": true}}'), "the key '__proto__'"],
    ['constructor', { constructor: { prototype: {} } }, "the key 'constructor'"],
    ['a NUL in a key', { 'a\u0000b': 1 }, 'a key containing NUL'],
    ['long text', { a: fill('x', 10_001) }, 'text longer than 10000 characters'],
    ['deep nesting', JSON.parse('['.repeat(50) + ']'.repeat(50)), 'nesting deeper than 12'],
    ['many values', { a: new Array(20_001).fill(0) }, 'more than 20000 values'],
  ])('refuses %s', (_label, value, reason) => {
    expect(jsonProblem(value)).toBe(reason);
  });

  it('takes a search form as the browser sends it', () => {
    expect(
      jsonProblem({ projectName: 'Riverside', purchasePrice: '1,200,000', tags: [1, null, true] }),
    ).toBeNull();
  });
});
