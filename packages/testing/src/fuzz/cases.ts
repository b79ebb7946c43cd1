// The cases of one route: its bodies, path parameters and query, drawn with the seeded generator within
// a budget, each marked with whether the route must refuse it.
import { type BodyOracle, type FuzzBody, JSON_TYPE, bodyCandidates, parsedBody, rawBodies } from './bodies';
import type { SeededRandom } from './random';
import { encodeSegment, hostileQueries, hostileSegments, toJsonText } from './values';

/** A route to fuzz: how it is called validly, and what its body schema takes. */
export interface FuzzRoute {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
  /** The path with `:param`s, as the service registers it. */
  path: string;
  /** Values for the path's parameters that reach the handler (an existing id, a real offer index). */
  params?: Record<string, string>;
  /** The body: a valid example and which derived bodies the route takes. Absent: the route reads none. */
  body?: { examples: unknown[]; schema?: unknown; accepts: BodyOracle };
  /** A query parameter to fuzz (the route reads it with a schema). */
  queryParam?: string;
  /** Whether an answer counts as a refusal; a 4xx by default. */
  refused?: (status: number) => boolean;
}

/** One request of a fuzz run. `mustRefuse`: the schema refuses it, so the route must answer 4xx. */
export interface FuzzCase {
  route: string;
  label: string;
  method: string;
  path: string;
  contentType?: string;
  body?: string;
  mustRefuse: boolean;
  refused: (status: number) => boolean;
}

export interface FuzzBudget {
  /** Most body cases the schema refuses, per route. */
  refusedBodies: number;
  /** Most body cases the schema takes anyway (sent too: they must not fail with a 5xx), per route. */
  toleratedBodies: number;
  /** Hostile values per path parameter. */
  segments: number;
}

const isClientError = (status: number) => status >= 400 && status < 500;

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(
    /:([A-Za-z]+)/g,
    (_m, name: string) => params[name] ?? encodeSegment(`missing-${name}`),
  );
}

/**
 * The cases of one route, drawn with the seeded generator: raw and whole-body cases first (a few),
 * then field mutations round-robin over the fields so every field is hit, path parameters and the
 * query last. Only bodies the route's oracle refuses are `mustRefuse`; a few it takes are kept too.
 */
export function routeCases(route: FuzzRoute, random: SeededRandom, budget: FuzzBudget): FuzzCase[] {
  const name = `${route.method} ${route.path}`;
  const refused = route.refused ?? isClientError;
  const params = route.params ?? {};
  const validPath = fillPath(route.path, params);
  const cases: FuzzCase[] = [];
  const examples = route.body?.examples ?? [{}];
  const accepts: BodyOracle = route.body?.accepts ?? (() => true);
  const schema = route.body?.schema;
  const mustRefuseCases: FuzzCase[] = [];
  const tolerated: FuzzCase[] = [];
  // A GET's body is never read: only its path and query are fuzzed.
  for (const example of route.method === 'GET' ? [] : examples) {
    const share = (n: number) => Math.ceil(n / examples.length);
    let refusedLeft = share(budget.refusedBodies);
    let toleratedLeft = share(budget.toleratedBodies);
    // A route that reads no body gets every raw case; others a share, beside their derived bodies.
    const rawCount = route.body ? Math.max(6, Math.floor(refusedLeft / 5)) : Infinity;
    const raw = random.shuffle(rawBodies(example)).slice(0, rawCount);
    // Without a body schema only the raw cases apply: the route reads no fields.
    const derived = route.body ? bodyCandidates(schema, example) : [];
    const whole = random.shuffle(derived.filter((c) => c.group === 'whole')).slice(0, 4);
    // Field cases round-robin over the fields, so that every field is hit before any is hit twice.
    const byField = new Map<string, FuzzBody[]>();
    for (const candidate of random.shuffle(derived.filter((c) => c.group !== 'whole'))) {
      const field = candidate.label.replace(/^without /, '').split(/ = | \+ key /)[0] ?? '';
      byField.set(field, [...(byField.get(field) ?? []), candidate]);
    }
    const ordered: FuzzBody[] = [...raw, ...whole];
    const queues = random.shuffle([...byField.values()]);
    for (let round = 0; queues.some((q) => q.length > round); round++)
      for (const queue of queues) if (queue[round]) ordered.push(queue[round] as FuzzBody);

    for (const body of ordered) {
      if (refusedLeft <= 0 && toleratedLeft <= 0) break;
      const parsed = parsedBody(body);
      const taken = parsed !== 'unparsable' && accepts(parsed.value);
      if (taken ? toleratedLeft <= 0 : refusedLeft <= 0) continue;
      if (taken) toleratedLeft -= 1;
      else refusedLeft -= 1;
      (taken ? tolerated : mustRefuseCases).push({
        route: name,
        label: `body: ${body.label}`,
        method: route.method,
        path: validPath,
        contentType: body.contentType,
        body: body.text,
        mustRefuse: !taken,
        refused,
      });
    }
  }
  cases.push(...mustRefuseCases);

  const validBody = route.body ? toJsonText(examples[0]) : undefined;
  for (const param of Object.keys(route.path.match(/:[A-Za-z]+/g) ? params : {})) {
    for (const { label, segment } of random.shuffle(hostileSegments()).slice(0, budget.segments)) {
      cases.push({
        route: name,
        label: `:${param} = ${label}`,
        method: route.method,
        path: fillPath(route.path, { ...params, [param]: segment }),
        contentType: validBody === undefined ? undefined : JSON_TYPE,
        body: validBody,
        mustRefuse: true,
        refused,
      });
    }
  }
  if (route.queryParam) {
    for (const { label, query } of hostileQueries(route.queryParam)) {
      cases.push({
        route: name,
        label: `?${route.queryParam}: ${label}`,
        method: route.method,
        path: `${validPath}${query ? `?${query}` : ''}`,
        mustRefuse: true,
        refused,
      });
    }
  }
  // Tolerated bodies go last: they may change state, and never before the refusals are checked.
  cases.push(...tolerated);
  return cases;
}
