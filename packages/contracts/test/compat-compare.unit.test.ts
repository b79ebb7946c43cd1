import { z } from 'zod';
import { defineRoute, errorAnswer } from '../src/api/route';
import { compareDomainContracts, compareEventSchemas, describeIncompatibility } from '../src/compat/compare';
import type { JsonSchema } from '../src/compat/json-schema';
import { CONTRACT_DOMAINS, type ContractSources, domainContracts } from '../src/compat/snapshot';
import { EVENT_SCHEMAS } from '../src/events/schemas';

const json = (schema: z.ZodType): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest as JsonSchema;
};

/** The problems of an event schema released as `before` and changed to `after`, one line each. */
const eventChange = (before: z.ZodType, after: z.ZodType) =>
  compareEventSchemas('event t v1', json(before), json(after)).map(describeIncompatibility);

describe('event compatibility: readers must read old and new', () => {
  const base = z.object({ id: z.string(), amount: z.number() });

  it('refuses a removed field, naming it, and passes an added optional field', () => {
    expect(eventChange(base, z.object({ id: z.string() }))).toEqual([
      expect.stringMatching(/^event t v1: amount: field removed/),
    ]);
    expect(eventChange(base, base.extend({ note: z.string().optional() }))).toEqual([]);
  });

  it('refuses a renamed field and says what took its place', () => {
    const problems = eventChange(base, z.object({ id: z.string(), total: z.number() }));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/amount: field removed \(renamed\? today's schema adds total\)/),
        expect.stringMatching(/total: new required field/),
      ]),
    );
  });

  it('refuses a new required field and passes the same field optional', () => {
    expect(eventChange(base, base.extend({ currency: z.string() }))).toEqual([
      'event t v1: currency: new required field: events of the release do not carry it',
    ]);
    expect(eventChange(base, base.extend({ currency: z.string().nullable().optional() }))).toEqual([]);
  });

  it('refuses a narrowed type and passes the widened one', () => {
    const integer = z.object({ id: z.string(), amount: z.number().int() });
    expect(eventChange(base, integer)).toEqual([expect.stringMatching(/amount: narrowed type/)]);
    expect(eventChange(integer, base)).toEqual([]);

    const nullable = z.object({ id: z.string().nullable(), amount: z.number() });
    expect(eventChange(nullable, base)).toEqual([
      expect.stringMatching(/id: narrowed type \(null no longer accepted/),
    ]);
    expect(eventChange(base, nullable)).toEqual([]);

    const nonEmpty = z.object({ id: z.string().min(1), amount: z.number().nonnegative() });
    expect(eventChange(base, nonEmpty)).toEqual([
      expect.stringMatching(/id: narrowed type \(at least 1 characters/),
      expect.stringMatching(/amount: narrowed type \(now ≥ 0/),
    ]);
    expect(eventChange(nonEmpty, base)).toEqual([]);

    const stringOrNumber = z.object({ id: z.string(), amount: z.union([z.number(), z.string()]) });
    expect(eventChange(stringOrNumber, base)).toEqual([
      expect.stringMatching(/amount: narrowed type \(string no longer accepted/),
    ]);
    expect(eventChange(base, stringOrNumber)).toEqual([]);

    const uuid = z.object({ id: z.string().uuid(), amount: z.number() });
    expect(eventChange(base, uuid)).toEqual([
      expect.stringMatching(/id: narrowed type \(now must be a uuid/),
    ]);
    expect(eventChange(uuid, base)).toEqual([]);
  });

  it('refuses a removed enum value, naming it, and passes an added one', () => {
    const two = z.object({ change: z.enum(['withdrawn', 'repriced']) });
    const one = z.object({ change: z.enum(['withdrawn']) });
    expect(eventChange(two, one)).toEqual([
      'event t v1: change: narrowed type (value "repriced" no longer accepted)',
    ]);
    expect(eventChange(one, two)).toEqual([]);
    expect(eventChange(z.object({ change: z.string() }), two)).toEqual([
      expect.stringMatching(/change: narrowed type \(was any string, now only/),
    ]);
  });

  it('refuses a changed key of a record and passes a widened one', () => {
    const byAnyKey = z.object({ totals: z.record(z.string(), z.number()) });
    const byUuid = z.object({ totals: z.record(z.string().uuid(), z.number()) });
    expect(eventChange(byAnyKey, byUuid)).toEqual([
      expect.stringMatching(/totals\.\(key\): narrowed type \(now must be a uuid/),
    ]);
    expect(eventChange(byUuid, byAnyKey)).toEqual([]);
    const byNumberValue = z.object({ totals: z.record(z.string(), z.number().int()) });
    expect(eventChange(byAnyKey, byNumberValue)).toEqual([
      expect.stringMatching(/totals\.\*: narrowed type/),
    ]);
  });

  it('refuses a field that is no longer always present, and passes one that now always is', () => {
    const optional = z.object({ id: z.string(), amount: z.number().optional() });
    expect(eventChange(base, optional)).toEqual([
      'event t v1: amount: no longer always present: readers of the release require it',
    ]);
    expect(eventChange(optional, base)).toEqual([
      'event t v1: amount: new required field: events of the release do not carry it',
    ]);
    const withDefault = z.object({ id: z.string(), amount: z.number().default(0) });
    expect(eventChange(optional, withDefault)).toEqual([]);
  });

  it('names a nested field by its path, through arrays and nullable objects', () => {
    const nested = (loan: z.ZodType) =>
      z.object({ snapshot: z.object({ loan }).nullable(), dips: z.array(z.object({ loan })) });
    const before = nested(z.object({ netLoan: z.number(), grossLoan: z.number() }));
    const after = nested(z.object({ grossLoan: z.number() }));
    expect(eventChange(before, after)).toEqual([
      expect.stringMatching(/^event t v1: snapshot\.loan\.netLoan: field removed/),
      expect.stringMatching(/^event t v1: dips\[\]\.loan\.netLoan: field removed/),
    ]);
  });

  it('refuses a strict schema that would refuse a field released events carry', () => {
    expect(eventChange(base, z.strictObject({ id: z.string() }))).toEqual(
      expect.arrayContaining([expect.stringMatching(/amount: field removed/)]),
    );
    expect(
      eventChange(
        z.object({ id: z.string(), note: z.string().optional() }),
        z.strictObject({ id: z.string() }),
      ),
    ).toEqual([expect.stringMatching(/note: field removed/)]);
  });

  it('finds nothing between a schema and itself, for every event and route of this tree', () => {
    for (const domain of CONTRACT_DOMAINS) {
      const contracts = domainContracts(domain);
      expect(compareDomainContracts(contracts, contracts)).toEqual([]);
    }
  });
});

describe('route compatibility: callers of the release still call and read', () => {
  const loanView = z.object({ id: z.string(), status: z.enum(['active', 'expired']), netLoan: z.number() });
  const route = (overrides: Partial<Parameters<typeof defineRoute>[0]> = {}) =>
    defineRoute({
      operationId: 'getLoan',
      method: 'POST',
      path: '/api/loans/:loanId',
      service: 'dip',
      summary: 'A loan',
      auth: 'session',
      params: z.object({ loanId: z.string() }),
      body: z.object({ note: z.string() }),
      responses: { 200: { description: 'The loan', schema: loanView }, 404: errorAnswer('No such loan') },
      ...overrides,
    });
  const sources = (...routes: ReturnType<typeof route>[]): ContractSources => ({
    eventSchemas: EVENT_SCHEMAS,
    routes,
  });
  const routeChange = (before: ReturnType<typeof route>[], after: ReturnType<typeof route>[]) =>
    compareDomainContracts(
      domainContracts('dip', sources(...before)),
      domainContracts('dip', sources(...after)),
    )
      .filter((i) => i.where.startsWith('route'))
      .map(describeIncompatibility);

  it('refuses a removed route and passes an added one', () => {
    const other = route({
      operationId: 'listLoans',
      method: 'GET',
      path: '/api/loans',
      body: undefined,
      params: undefined,
    });
    expect(routeChange([route(), other], [route()])).toEqual([
      'route GET /api/loans: (route): route removed: callers of the release call it',
    ]);
    expect(routeChange([route()], [route(), other])).toEqual([]);
  });

  it('refuses a removed answer field and passes an added one', () => {
    const without = route({
      responses: { 200: { description: 'The loan', schema: loanView.omit({ netLoan: true }) } },
    });
    expect(routeChange([route()], [without])).toEqual([
      expect.stringMatching(/^route POST \/api\/loans\/:loanId answer 200: netLoan: answer field removed/),
    ]);
    const more = route({
      responses: { 200: { description: 'The loan', schema: loanView.extend({ grossLoan: z.number() }) } },
    });
    expect(routeChange([route()], [more])).toEqual([]);
  });

  it('refuses an answer that holds what its callers refuse, and passes a narrower answer', () => {
    const wider = route({
      responses: {
        200: {
          description: 'The loan',
          schema: loanView.extend({ status: z.enum(['active', 'expired', 'archived']) }),
        },
      },
    });
    expect(routeChange([route()], [wider])).toEqual([
      expect.stringMatching(/answer 200: status: answer widened \(value "archived" no longer accepted\)/),
    ]);
    expect(routeChange([wider], [route()])).toEqual([]);
  });

  it('refuses a new required request field and passes a new optional one', () => {
    const required = route({ body: z.object({ note: z.string(), amount: z.number() }) });
    expect(routeChange([route()], [required])).toEqual([
      'route POST /api/loans/:loanId request body: amount: new required request field: callers of the release do not send it',
    ]);
    const optional = route({ body: z.object({ note: z.string(), amount: z.number().optional() }) });
    expect(routeChange([route()], [optional])).toEqual([]);
    const query = route({ query: z.object({ page: z.string() }) });
    expect(routeChange([route()], [query])).toEqual([
      expect.stringMatching(/request query: page: new required request field/),
    ]);
  });

  it('refuses a narrowed request type and passes a widened one', () => {
    const narrow = route({ body: z.object({ note: z.string().max(10) }) });
    expect(routeChange([route()], [narrow])).toEqual([
      expect.stringMatching(/request body: note: narrowed type \(at most 10 characters now/),
    ]);
    expect(routeChange([narrow], [route()])).toEqual([]);
  });

  it('refuses a body that becomes required, or an answer that stops being JSON', () => {
    const noBody = route({ method: 'PUT', body: undefined });
    const withBody = route({ method: 'PUT' });
    expect(routeChange([noBody], [withBody])).toEqual([
      'route PUT /api/loans/:loanId: (body): a request body is now required: callers of the release send none',
    ]);
    const pdf = route({ responses: { 200: { description: 'The PDF', contentType: 'application/pdf' } } });
    expect(routeChange([route()], [pdf])).toEqual([
      'route POST /api/loans/:loanId answer 200: (body): content type changed from application/json to application/pdf',
    ]);
  });
});
