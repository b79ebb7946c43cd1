/**
 * Schema-driven fuzzing of a service's HTTP routes. Given the zod schema a route parses and a valid
 * example, it derives bad inputs (wrong types, huge values, `$`-keys, `__proto__` and `constructor`
 * keys, unicode edge cases, deep nesting, malformed JSON, hostile path parameters), asks the schema
 * itself which of them it refuses, and sends them as raw HTTP so nothing on the way normalises them.
 * Everything is drawn from a seeded generator: a failure names its seed and reproduces.
 *
 * random.ts: the seeded generator. values.ts: hostile values, keys, path segments and queries.
 * bodies.ts: bodies derived from a schema and an example. cases.ts: a route's cases within a budget.
 * sending.ts: raw HTTP and the judging of answers. storage.ts: the database read back.
 * suite.ts: describeFuzz, the tests of one service.
 */
export { SeededRandom, fuzzSeed } from './random';
export {
  RawJson,
  encodeSegment,
  hostileKeys,
  hostileQueries,
  hostileSegments,
  hostileValues,
  toJsonText,
  withOwnKey,
} from './values';
export {
  type BodyOracle,
  type FuzzBody,
  type FuzzPath,
  type FuzzSchema,
  bodyCandidates,
  objectBodyOracle,
  parsedBody,
  rawBodies,
  schemaFieldPaths,
  withValueAt,
} from './bodies';
export { type FuzzBudget, type FuzzCase, type FuzzRoute, routeCases } from './cases';
export { type FuzzAnswer, describeAnswer, isFailure, runCases, sendCase, tallyStatuses } from './sending';
export { databaseFingerprint, settledFingerprint, unsafeStoredKeys } from './storage';
export { type FuzzSuite, type FuzzTarget, describeFuzz } from './suite';
