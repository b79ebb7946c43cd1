import {
  type JsonSchema,
  acceptsAnything,
  enumValues,
  isSchema,
  resolveRef,
  typeFits,
  typesOf,
  unionBranches,
} from './json-schema';
import type { DomainContracts, RouteSnapshot } from './snapshot';

/**
 * Whether today's contracts can run beside the last release: the rules of
 * docs/decisions/0107-released-contracts-and-what-breaks-a-reader.md.
 *
 * Events (readers must read old and new): today's schema must accept every payload the released one
 * allowed (no new required field, no narrowed type, no removed enum value, no changed record key), and
 * every field the released schema declared is still declared, and still always present where it was.
 * Routes: every released route still answers; its request schemas accept every request the released
 * ones did; every answer field the released answers carried is still there, always present where it
 * was, and holds nothing the released readers would refuse.
 */
export interface Incompatibility {
  /** `event dip.created v1` or `route POST /api/dip/:searchId/:loanIndex request body`. */
  where: string;
  /** The field's path (`snapshot.loan.netLoan`, `[]` an array's items), `(payload)` for the whole. */
  field: string;
  problem: string;
}

export const describeIncompatibility = (i: Incompatibility) => `${i.where}: ${i.field}: ${i.problem}`;

/** What reading a writer's values with a reader's schema can hit. */
type Mismatch =
  | { kind: 'missing-required'; path: string }
  | { kind: 'not-accepted'; path: string; detail: string }
  | { kind: 'unknown-refused'; path: string };

interface Walk {
  writerRoot: JsonSchema;
  readerRoot: JsonSchema;
  /** Honour the reader's `additionalProperties: false` (a strict request or event schema). */
  readerRefusesUnknown: boolean;
  out: Mismatch[];
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);
const shown = (value: unknown) => JSON.stringify(value);

/** Every way a value the writer's schema allows could be refused by the reader's schema. */
function readerMismatches(
  writer: JsonSchema,
  reader: JsonSchema,
  options: { readerRefusesUnknown: boolean },
): Mismatch[] {
  const walk: Walk = { writerRoot: writer, readerRoot: reader, out: [], ...options };
  compareValues(writer, reader, '', walk);
  return walk.out;
}

function compareValues(writerIn: unknown, readerIn: unknown, path: string, walk: Walk): void {
  if (acceptsAnything(readerIn)) return;
  if (!isSchema(readerIn)) return;
  const reader = resolveRef(readerIn, walk.readerRoot);
  if (acceptsAnything(reader)) return;
  if (unionBranches(reader)?.some((branch) => acceptsAnything(resolveRef(branch, walk.readerRoot)))) return;
  if (acceptsAnything(writerIn) || !isSchema(writerIn)) {
    walk.out.push({ kind: 'not-accepted', path, detail: 'was any value, now constrained' });
    return;
  }
  const writer = resolveRef(writerIn, walk.writerRoot);
  if (acceptsAnything(writer)) {
    walk.out.push({ kind: 'not-accepted', path, detail: 'was any value, now constrained' });
    return;
  }

  const writerBranches = unionBranches(writer);
  if (writerBranches) {
    for (const branch of writerBranches) compareValues(branch, reader, path, walk);
    return;
  }
  if (Array.isArray(writer.allOf)) {
    // Every value of an intersection fits each member: one member the reader accepts is enough.
    const attempts = (writer.allOf as JsonSchema[]).map((member) => trial(member, reader, path, walk));
    if (!attempts.some((found) => found.length === 0)) walk.out.push(...attempts[0]!);
    return;
  }
  const readerBranches = unionBranches(reader);
  if (readerBranches) {
    const attempts = readerBranches.map((branch) => ({ branch, found: trial(writer, branch, path, walk) }));
    if (attempts.some((attempt) => attempt.found.length === 0)) return;
    const writerTypes = typesOf(writer) ?? [];
    const sameType = attempts.filter((attempt) =>
      (typesOf(resolveRef(attempt.branch, walk.readerRoot)) ?? []).some((t) =>
        writerTypes.some((w) => typeFits(w, t)),
      ),
    );
    const candidates = sameType.length > 0 ? sameType : attempts;
    const best = candidates.reduce((a, b) => (b.found.length < a.found.length ? b : a));
    walk.out.push(...best.found);
    return;
  }
  if (Array.isArray(reader.allOf)) {
    for (const member of reader.allOf as JsonSchema[]) compareValues(writer, member, path, walk);
    return;
  }
  compareSimple(writer, reader, path, walk);
}

function trial(writer: unknown, reader: unknown, path: string, walk: Walk): Mismatch[] {
  const inner: Walk = { ...walk, out: [] };
  compareValues(writer, reader, path, inner);
  return inner.out;
}

function compareSimple(writer: JsonSchema, reader: JsonSchema, path: string, walk: Walk): void {
  const notAccepted = (detail: string) => walk.out.push({ kind: 'not-accepted', path, detail });
  const readerValues = enumValues(reader);
  const writerValues = enumValues(writer);
  if (readerValues) {
    if (!writerValues) {
      notAccepted(`was any ${typesOf(writer)?.join(' or ') ?? 'value'}, now only ${shown(readerValues)}`);
      return;
    }
    const dropped = writerValues.filter((v) => !readerValues.some((r) => shown(r) === shown(v)));
    if (dropped.length > 0) notAccepted(`value ${dropped.map(shown).join(', ')} no longer accepted`);
    return;
  }

  const writerTypes = typesOf(writer);
  const readerTypes = typesOf(reader);
  if (readerTypes) {
    if (!writerTypes) {
      notAccepted(`was any type, now only ${readerTypes.join(' or ')}`);
      return;
    }
    const refused = writerTypes.filter((w) => !readerTypes.some((r) => typeFits(w, r)));
    if (refused.length > 0) {
      notAccepted(`${refused.join(' or ')} no longer accepted (now ${readerTypes.join(' or ')})`);
      return;
    }
  }
  if (writerValues) {
    // Each value the writer may send must meet the reader's constraints.
    for (const value of writerValues) {
      const problem = valueProblem(value, reader);
      if (problem) notAccepted(`value ${shown(value)}: ${problem}`);
    }
    return;
  }
  const types = writerTypes ?? [];
  if (types.includes('string')) compareStrings(writer, reader, notAccepted);
  if (types.includes('number') || types.includes('integer')) compareNumbers(writer, reader, notAccepted);
  if (types.includes('array')) {
    compareRange(writer, reader, 'minItems', 'maxItems', 'items', notAccepted);
    compareValues(writer.items ?? {}, reader.items ?? {}, `${path}[]`, walk);
  }
  if (types.includes('object')) compareObjects(writer, reader, path, walk);
}

function compareStrings(writer: JsonSchema, reader: JsonSchema, notAccepted: (detail: string) => void) {
  compareRange(writer, reader, 'minLength', 'maxLength', 'characters', notAccepted);
  if (typeof reader.format === 'string' && reader.format !== writer.format) {
    notAccepted(`now must be a ${reader.format}`);
    return;
  }
  const sameFormat = typeof reader.format === 'string' && reader.format === writer.format;
  if (typeof reader.pattern === 'string' && reader.pattern !== writer.pattern && !sameFormat) {
    notAccepted(`now must match ${reader.pattern}`);
  }
}

/** A lower and an upper bound of a count (length, items): the reader's may not be tighter. */
function compareRange(
  writer: JsonSchema,
  reader: JsonSchema,
  minKey: string,
  maxKey: string,
  unit: string,
  notAccepted: (detail: string) => void,
) {
  const readerMin = reader[minKey] as number | undefined;
  const writerMin = (writer[minKey] as number | undefined) ?? 0;
  if (readerMin !== undefined && readerMin > writerMin) {
    notAccepted(`at least ${readerMin} ${unit} now (was ${writerMin})`);
  }
  const readerMax = reader[maxKey] as number | undefined;
  const writerMax = writer[maxKey] as number | undefined;
  if (readerMax !== undefined && (writerMax === undefined || readerMax < writerMax)) {
    notAccepted(`at most ${readerMax} ${unit} now (was ${writerMax ?? 'unbounded'})`);
  }
}

interface Bound {
  value: number;
  exclusive: boolean;
}

function boundOf(schema: JsonSchema, side: 'min' | 'max'): Bound | null {
  const inclusive = schema[side === 'min' ? 'minimum' : 'maximum'] as number | undefined;
  const exclusive = schema[side === 'min' ? 'exclusiveMinimum' : 'exclusiveMaximum'] as number | undefined;
  if (inclusive === undefined && exclusive === undefined) return null;
  if (inclusive === undefined) return { value: exclusive!, exclusive: true };
  if (exclusive === undefined) return { value: inclusive, exclusive: false };
  const tighter = side === 'min' ? exclusive >= inclusive : exclusive <= inclusive;
  return tighter ? { value: exclusive, exclusive: true } : { value: inclusive, exclusive: false };
}

const boundText = (bound: Bound | null, side: 'min' | 'max') =>
  bound === null
    ? 'unbounded'
    : `${side === 'min' ? (bound.exclusive ? '>' : '≥') : bound.exclusive ? '<' : '≤'} ${bound.value}`;

function compareNumbers(writer: JsonSchema, reader: JsonSchema, notAccepted: (detail: string) => void) {
  for (const side of ['min', 'max'] as const) {
    const readerBound = boundOf(reader, side);
    if (!readerBound) continue;
    const writerBound = boundOf(writer, side);
    const sign = side === 'min' ? 1 : -1;
    const covered =
      writerBound !== null &&
      (sign * (writerBound.value - readerBound.value) > 0 ||
        (writerBound.value === readerBound.value && (writerBound.exclusive || !readerBound.exclusive)));
    if (!covered) {
      notAccepted(`now ${boundText(readerBound, side)} (was ${boundText(writerBound, side)})`);
    }
  }
  const readerStep = reader.multipleOf as number | undefined;
  const writerStep = writer.multipleOf as number | undefined;
  if (readerStep !== undefined && (writerStep === undefined || writerStep % readerStep !== 0)) {
    notAccepted(`now a multiple of ${readerStep}`);
  }
}

function compareObjects(writer: JsonSchema, reader: JsonSchema, path: string, walk: Walk) {
  const writerProperties = (isSchema(writer.properties) ? writer.properties : {}) as Record<string, unknown>;
  const readerProperties = (isSchema(reader.properties) ? reader.properties : {}) as Record<string, unknown>;
  const writerRequired = new Set((writer.required ?? []) as string[]);
  for (const name of (reader.required ?? []) as string[]) {
    if (!writerRequired.has(name)) walk.out.push({ kind: 'missing-required', path: join(path, name) });
  }
  for (const [name, readerProperty] of Object.entries(readerProperties)) {
    if (name in writerProperties)
      compareValues(writerProperties[name], readerProperty, join(path, name), walk);
  }
  for (const [name, writerProperty] of Object.entries(writerProperties)) {
    if (name in readerProperties) continue;
    if (reader.additionalProperties === false && walk.readerRefusesUnknown) {
      walk.out.push({ kind: 'unknown-refused', path: join(path, name) });
    } else if (isSchema(reader.additionalProperties)) {
      compareValues(writerProperty, reader.additionalProperties, join(path, name), walk);
    }
  }
  if (isSchema(reader.additionalProperties)) {
    // A record: each value the writer allowed under any key must still be read. A writer that
    // declares its properties and no more wrote only those (checked above).
    const writerValues = isSchema(writer.additionalProperties)
      ? writer.additionalProperties
      : isSchema(writer.properties)
        ? null
        : {};
    if (writerValues) compareValues(writerValues, reader.additionalProperties, join(path, '*'), walk);
  }
  if (reader.propertyNames !== undefined) {
    compareValues(
      writer.propertyNames ?? { type: 'string' },
      reader.propertyNames,
      join(path, '(key)'),
      walk,
    );
  }
}

/** Why a single value does not meet a simple schema's constraints, or null. */
function valueProblem(value: unknown, schema: JsonSchema): string | null {
  const types = typesOf(schema);
  const type =
    value === null
      ? 'null'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;
  if (types && !types.some((t) => typeFits(type, t))) return `not a ${types.join(' or ')}`;
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) return 'too short';
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return 'too long';
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return 'no match';
  }
  if (typeof value === 'number') {
    const min = boundOf(schema, 'min');
    const max = boundOf(schema, 'max');
    if (min && (value < min.value || (min.exclusive && value === min.value))) return 'too small';
    if (max && (value > max.value || (max.exclusive && value === max.value))) return 'too large';
  }
  return null;
}

/**
 * The fields the released schema declares that today's no longer does, or no longer always holds
 * (required then, optional now): a reader of the release expects them.
 */
function removedFields(
  released: unknown,
  today: unknown,
  path: string,
  roots: [JsonSchema, JsonSchema],
  out: [field: string, problem: string][],
): void {
  const before = objectPart(released, roots[0]);
  const after = objectPart(today, roots[1]);
  if (before && after) {
    const beforeProperties = (isSchema(before.properties) ? before.properties : {}) as Record<
      string,
      unknown
    >;
    const afterProperties = (isSchema(after.properties) ? after.properties : {}) as Record<string, unknown>;
    const beforeRequired = new Set((before.required ?? []) as string[]);
    const afterRequired = new Set((after.required ?? []) as string[]);
    const added = Object.keys(afterProperties).filter((name) => !(name in beforeProperties));
    for (const [name, property] of Object.entries(beforeProperties)) {
      const field = join(path, name);
      if (!(name in afterProperties)) {
        const renamed = added.length > 0 ? ` (renamed? today's schema adds ${added.join(', ')})` : '';
        out.push([field, `field removed${renamed}: readers of the release read it`]);
      } else {
        if (beforeRequired.has(name) && !afterRequired.has(name)) {
          out.push([field, 'no longer always present: readers of the release require it']);
        }
        removedFields(property, afterProperties[name], field, roots, out);
      }
    }
    return;
  }
  const beforeItems = arrayItems(released, roots[0]);
  const afterItems = arrayItems(today, roots[1]);
  if (beforeItems !== undefined && afterItems !== undefined) {
    removedFields(beforeItems, afterItems, `${path}[]`, roots, out);
  }
}

/** The object a schema describes, looking through a union with null (`nullable`), or null. */
function objectPart(schema: unknown, root: JsonSchema): JsonSchema | null {
  if (!isSchema(schema)) return null;
  const resolved = resolveRef(schema, root);
  const branches = unionBranches(resolved);
  if (branches) {
    const objects = branches.map((b) => objectPart(b, root)).filter((b): b is JsonSchema => b !== null);
    return objects.length === 1 ? objects[0]! : null;
  }
  return isSchema(resolved.properties) ? resolved : null;
}

function arrayItems(schema: unknown, root: JsonSchema): unknown {
  if (!isSchema(schema)) return undefined;
  const resolved = resolveRef(schema, root);
  const branches = unionBranches(resolved);
  if (branches) {
    const items = branches.map((b) => arrayItems(b, root)).filter((b) => b !== undefined);
    return items.length === 1 ? items[0] : undefined;
  }
  return resolved.type === 'array' ? (resolved.items ?? {}) : undefined;
}

const fieldName = (path: string) => path || '(payload)';

/**
 * The fields of the release that today's schema lost or no longer always has, then each of the
 * reader's `mismatches` on a field not named already: one problem a field.
 */
function lostThenMismatched(
  where: string,
  released: JsonSchema,
  today: JsonSchema,
  side: 'event' | 'answer',
  mismatches: Mismatch[],
): Incompatibility[] {
  const found: Incompatibility[] = [];
  const removed: [string, string][] = [];
  removedFields(released, today, '', [released, today], removed);
  for (const [field, problem] of removed)
    found.push({
      where,
      field,
      problem: side === 'answer' ? problem.replace('field', 'answer field') : problem,
    });
  for (const mismatch of mismatches) {
    if (found.some((f) => f.field === fieldName(mismatch.path))) continue;
    found.push({ where, field: fieldName(mismatch.path), problem: readerProblem(mismatch, side) });
  }
  return found;
}

/** An event payload schema of the release against today's: what a reader of either could not read. */
export function compareEventSchemas(
  where: string,
  released: JsonSchema,
  today: JsonSchema,
): Incompatibility[] {
  const mismatches = readerMismatches(released, today, { readerRefusesUnknown: true });
  return lostThenMismatched(where, released, today, 'event', mismatches);
}

/** A request part (params, query or body) of the release against today's: every released request still reads. */
export function compareRequestSchemas(
  where: string,
  released: JsonSchema,
  today: JsonSchema,
): Incompatibility[] {
  return readerMismatches(released, today, { readerRefusesUnknown: true }).map((mismatch) => ({
    where,
    field: fieldName(mismatch.path),
    problem: readerProblem(mismatch, 'request'),
  }));
}

/** An answer of the release against today's: the released callers still read today's answer. */
export function compareAnswerSchemas(
  where: string,
  released: JsonSchema,
  today: JsonSchema,
): Incompatibility[] {
  // Callers ignore fields they do not know: only what they read is held to their schema.
  const mismatches = readerMismatches(today, released, { readerRefusesUnknown: false });
  return lostThenMismatched(where, released, today, 'answer', mismatches);
}

function readerProblem(mismatch: Mismatch, side: 'event' | 'request' | 'answer'): string {
  switch (mismatch.kind) {
    case 'missing-required':
      return side === 'answer'
        ? 'answer field removed or no longer always present: callers of the release read it'
        : side === 'event'
          ? 'new required field: events of the release do not carry it'
          : 'new required request field: callers of the release do not send it';
    case 'unknown-refused':
      return side === 'event'
        ? 'refused by today’s schema, but events of the release carry it'
        : 'refused by today’s schema, but callers of the release send it';
    case 'not-accepted':
      return side === 'answer'
        ? `answer widened (${mismatch.detail}): callers of the release refuse it`
        : `narrowed type (${mismatch.detail})`;
  }
}

/** Every way today's contracts of a domain break a reader of its last release. */
export function compareDomainContracts(released: DomainContracts, today: DomainContracts): Incompatibility[] {
  const found: Incompatibility[] = [];
  for (const [type, versions] of Object.entries(released.events)) {
    for (const [version, event] of Object.entries(versions)) {
      const where = `event ${type} v${version}`;
      const current = today.events[type]?.[version];
      if (!current) {
        found.push({
          where,
          field: '(payload)',
          problem: 'event type version removed: its readers and the events on its topic still use it',
        });
        continue;
      }
      found.push(...compareEventSchemas(where, event.schema, current.schema));
    }
  }
  for (const [key, route] of Object.entries(released.routes)) {
    const current = today.routes[key];
    if (!current) {
      found.push({
        where: `route ${key}`,
        field: '(route)',
        problem: 'route removed: callers of the release call it',
      });
      continue;
    }
    found.push(...compareRoutes(`route ${key}`, route, current));
  }
  return found;
}

const NOTHING_SENT: JsonSchema = { type: 'object', properties: {} };

function compareRoutes(where: string, released: RouteSnapshot, today: RouteSnapshot): Incompatibility[] {
  const found: Incompatibility[] = [];
  for (const part of ['params', 'query'] as const) {
    if (!today[part]) continue;
    found.push(
      ...compareRequestSchemas(`${where} request ${part}`, released[part] ?? NOTHING_SENT, today[part]!),
    );
  }
  if (today.body) {
    if (released.body)
      found.push(...compareRequestSchemas(`${where} request body`, released.body, today.body));
    else
      found.push({
        where,
        field: '(body)',
        problem: 'a request body is now required: callers of the release send none',
      });
  }
  for (const [status, answer] of Object.entries(released.responses)) {
    const current = today.responses[status];
    if (!current) continue; // a status no longer answered leaves the callers' reading of the others alone
    const answerWhere = `${where} answer ${status}`;
    if (answer.schema && current.schema) {
      found.push(...compareAnswerSchemas(answerWhere, answer.schema, current.schema));
    } else if (
      (answer.schema ? 'application/json' : answer.contentType) !==
      (current.schema ? 'application/json' : current.contentType)
    ) {
      found.push({
        where: answerWhere,
        field: '(body)',
        problem: `content type changed from ${answer.schema ? 'application/json' : (answer.contentType ?? 'none')} to ${current.schema ? 'application/json' : (current.contentType ?? 'none')}`,
      });
    }
  }
  return found;
}
