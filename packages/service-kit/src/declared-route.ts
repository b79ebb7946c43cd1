import {
  EMAIL_NOT_VERIFIED,
  OPS_MESSAGES,
  OPS_ROLE,
  PUBLIC_API_ROUTES,
  type PublicOperationId,
  type PublicRouteOf,
  type RouteContract,
} from '@lsp/contracts';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError, forbidden, unauthorized } from './errors';
import type { CallerIdentity } from './identity-headers';
import { declaredSchemaValidator } from './validation';

/**
 * Registers a handler for a route declared in @lsp/contracts, by its operation id. The method and
 * path come from the declaration (no path is written twice), and the declaration's zod schemas become
 * the route's fastify schema: fastify validates params, query and body before the handler with
 * fastify-type-provider-zod's validator (a clear 400 in the spec's words, see validation.ts), and
 * serialises each JSON answer through its declared schema (`declaredAnswerSerializer`: an answer that
 * does not match is a masked 500, never a leak of undeclared fields). The handler is typed from the
 * same schemas: what it reads is the schemas' output, what it returns one of the declared 2xx bodies.
 *
 * A route declared for signed-in callers (`session`, `ops`) refuses an anonymous caller with a 401
 * before validation, as the spec orders it (a 401 comes before a body's 400); `ops` also needs the
 * ops role (403, in the ops console's words), and a `verifiedEmail` route a caller whose email address
 * is verified (403 `EMAIL_NOT_VERIFIED` with `verificationRequired: true`). The handler then reads `request.caller` without checking it again.
 */
export type OperationId = PublicOperationId;
export type ContractOf<Id extends OperationId> = PublicRouteOf<Id>;

/** `/api/online-dip/:dipId/share` → `{ dipId: string }`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : object;

type SuccessStatus = 200 | 201 | 202;
/** A JSON answer's body as its schema takes it to serialise; a page or a file (declared by content type) as sent. */
type BodyOf<R> = R extends { schema: infer S extends z.ZodType }
  ? z.output<S>
  : R extends { contentType: string }
    ? string | Buffer
    : never;

/** The body of any of the route's declared 2xx answers. */
export type DeclaredSuccessBody<C extends RouteContract> = {
  [K in keyof C['responses']]: K extends SuccessStatus ? BodyOf<C['responses'][K]> : never;
}[keyof C['responses']];

/** What validation leaves of a request part: the schema's output, or `fallback` when none is declared. */
type Parsed<S, Fallback> = S extends z.ZodType ? z.output<S> : Fallback;

/** Routes whose callers are signed in by the time the handler runs. */
type SignedInAuth = 'session' | 'ops';

/**
 * The request as validation leaves it: path parameters, query and body are the declared schemas'
 * output (the path's `:names` as strings where no params schema is declared), and on a signed-in
 * route the caller is known.
 */
export type DeclaredRequest<C extends RouteContract> = FastifyRequest<{
  Params: Parsed<C['params'], PathParams<C['path']>>;
  Querystring: Parsed<C['query'], Record<string, unknown>>;
  Body: Parsed<C['body'], undefined>;
}> &
  (C['auth'] extends SignedInAuth ? { caller: CallerIdentity } : object);

/**
 * Returns a declared success body (set the status first with `reply.status(201)` where it is not
 * 200), or the reply itself once the handler has answered on it (a file stream, an event stream).
 */
export type DeclaredHandler<C extends RouteContract> = (
  request: DeclaredRequest<C>,
  reply: FastifyReply,
) => Promise<DeclaredSuccessBody<C> | FastifyReply>;

const byOperation = new Map<string, RouteContract>(
  PUBLIC_API_ROUTES.map((route) => [route.operationId, route]),
);

/** The declaration of an operation; throws for an id no route declares. */
export function contractOf(operationId: string): RouteContract {
  const contract = byOperation.get(operationId);
  if (!contract) throw new Error(`no route is declared with the operation id ${operationId}`);
  return contract;
}

export interface DeclaredRouteOptions extends RouteShorthandOptions {
  /** The 401's message on a signed-in route, where the spec words it for this route. */
  signInMessage?: string;
}

/** The fastify schema of a declaration: its input schemas and each JSON answer's schema by status. */
export function fastifySchemaOf(contract: RouteContract): FastifySchema {
  const response: Record<number, z.ZodType> = {};
  for (const [status, answer] of Object.entries(contract.responses)) {
    if (answer.schema) response[Number(status)] = answer.schema;
  }
  return {
    ...(contract.params ? { params: contract.params } : {}),
    ...(contract.query ? { querystring: contract.query } : {}),
    ...(contract.body ? { body: contract.body } : {}),
    response,
  };
}

/**
 * Serialises an answer through its declared schema: zod checks it and drops what the schema does not
 * name, then JSON.stringify writes it; a mismatch throws the type provider's
 * ResponseSerializationError (a masked 500, logged). fastify-type-provider-zod's own serializer runs
 * zod's `encode`, which takes no compiled fast path: 0.94–1.15 ms for a bridging answer against
 * 0.34–0.53 ms with `parse`, `JSON.stringify` included (services/search/bench/engine-bench.ts). Declared answers hold no transforms or codecs (a
 * unit test holds every declaration to that), so `parse` and `encode` give the same result.
 */
export const declaredAnswerSerializer: FastifySerializerCompiler<z.ZodType> = ({ schema, method, url }) => {
  return (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/**
 * The 403 of a route that needs a verified email address, to a caller who has not verified theirs:
 * `verificationRequired` tells the page to offer to resend the verification email.
 */
export const emailNotVerified = () => new HttpError(403, EMAIL_NOT_VERIFIED, { verificationRequired: true });

/** The hook that refuses a caller the declaration does not admit, before the input is validated. */
function admissionCheck(contract: RouteContract, signInMessage: string | undefined) {
  if (contract.auth !== 'session' && contract.auth !== 'ops') return undefined;
  const needsOps = contract.auth === 'ops';
  const needsVerified = contract.verifiedEmail === true;
  return async (request: FastifyRequest) => {
    if (!request.caller) throw unauthorized(signInMessage);
    if (needsOps && !request.caller.roles?.includes(OPS_ROLE)) throw forbidden(OPS_MESSAGES.forbidden);
    if (needsVerified && !request.caller.verified) throw emailNotVerified();
  };
}

export function declareRoute<Id extends OperationId>(
  app: FastifyInstance,
  operationId: Id,
  handler: NoInfer<DeclaredHandler<ContractOf<Id>>>,
  options: DeclaredRouteOptions = {},
): void {
  const contract = contractOf(operationId);
  const { signInMessage, ...routeOptions } = options;
  const admission = admissionCheck(contract, signInMessage);
  const preValidation = [routeOptions.preValidation, admission].flat().filter((hook) => hook !== undefined);
  app.route({
    ...routeOptions,
    method: contract.method,
    url: contract.path,
    schema: fastifySchemaOf(contract),
    // The schemas are zod's, so the route brings the compilers that read them (any fastify instance).
    validatorCompiler: declaredSchemaValidator as FastifySchemaCompiler<FastifySchema>,
    serializerCompiler: declaredAnswerSerializer as FastifySerializerCompiler<FastifySchema>,
    ...(preValidation.length > 0 ? { preValidation } : {}),
    handler: handler as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
