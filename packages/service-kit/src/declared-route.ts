import {
  PUBLIC_API_ROUTES,
  type PublicOperationId,
  type PublicRouteOf,
  type RouteContract,
} from '@lsp/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';

/**
 * Registers a handler for a route declared in @lsp/contracts, by its operation id: the method and path
 * come from the declaration (no path is written twice), the path parameters are typed from the
 * declared path, and what the handler returns must be the body of one of the route's declared 2xx
 * answers, checked by the compiler against the declaration's schema. The integration tests check the
 * same answers again at run time, status included (route-contracts.ts).
 *
 * Input is still parsed in the handler with `parseInput` and the declared schemas, because the spec
 * fixes the wording of every refusal (docs/decisions.md, "Route contracts are held at the service's
 * edge by hooks").
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
/** A JSON answer's body as its schema accepts it; a page or a file (declared by content type) as sent. */
type BodyOf<R> = R extends { schema: infer S extends z.ZodType }
  ? z.input<S>
  : R extends { contentType: string }
    ? string | Buffer
    : never;

/** The body of any of the route's declared 2xx answers. */
export type DeclaredSuccessBody<C extends RouteContract> = {
  [K in keyof C['responses']]: K extends SuccessStatus ? BodyOf<C['responses'][K]> : never;
}[keyof C['responses']];

/** The request, its path parameters typed from the declared path and its query from the declared schema. */
export type DeclaredRequest<C extends RouteContract> = FastifyRequest<{
  Params: PathParams<C['path']>;
  Querystring: C extends { query: infer Q extends z.ZodType } ? z.input<Q> : Record<string, unknown>;
}>;

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

export function declareRoute<Id extends OperationId>(
  app: FastifyInstance,
  operationId: Id,
  handler: NoInfer<DeclaredHandler<ContractOf<Id>>>,
  options: RouteShorthandOptions = {},
): void {
  const contract = contractOf(operationId);
  app.route({
    ...options,
    method: contract.method,
    url: contract.path,
    handler: handler as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
