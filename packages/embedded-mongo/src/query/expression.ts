// Aggregation expressions run on mingo, with comparison operators replaced by ones that follow
// MongoDB's cross-type order (mingo treats missing/null and Long/Decimal128 differently).
import { Context, ProcessingMode } from 'mingo';
import { Aggregator as BaseAggregator } from 'mingo/aggregator';
import * as pipelineOps from 'mingo/operators/pipeline';
import * as projectionOps from 'mingo/operators/projection';
import * as queryOps from 'mingo/operators/query';
import * as windowOps from 'mingo/operators/window';
import { evalExpr } from 'mingo/core';
import * as accumulatorOps from 'mingo/operators/accumulator';
import * as expressionOps from 'mingo/operators/expression';
import { errors } from '../errors';
import { NumericSum, addNumbers, multiplyNumbers, numKind } from './arith';
import { compareValues, getField, toNumber } from './values';

type Options = Parameters<typeof evalExpr>[2];

function comparison(test: (c: number) => boolean) {
  return (obj: unknown, expr: unknown, options: Options): unknown => {
    const args = evalExpr(obj, expr, options) as unknown[];
    return test(compareValues(args[0], args[1]));
  };
}

function argsOf(obj: unknown, expr: unknown, options: Options): unknown[] {
  const v = evalExpr(obj, expr, options);
  return Array.isArray(expr) ? (v as unknown[]) : [v];
}

const isNullish = (v: unknown) => v === null || v === undefined;

// Arithmetic keeps MongoDB's numeric types (Long stays exact, Decimal128 stays decimal).
function add(obj: unknown, expr: unknown, options: Options): unknown {
  const args = argsOf(obj, expr, options);
  if (args.some(isNullish)) return null;
  const date = args.find((a): a is Date => a instanceof Date);
  const numbers = args.filter((a) => !(a instanceof Date));
  for (const n of numbers)
    if (!numKind(n)) throw errors.typeMismatch(`$add only supports numeric or date types, not ${typeof n}`);
  const total = numbers.reduce<unknown>((acc, n) => addNumbers(acc, n), 0);
  return date ? new Date(date.getTime() + toNumber(total)) : total;
}

function subtract(obj: unknown, expr: unknown, options: Options): unknown {
  const [a, b] = argsOf(obj, expr, options);
  if (isNullish(a) || isNullish(b)) return null;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof Date) return new Date(a.getTime() - toNumber(b));
  if (!numKind(a) || !numKind(b)) throw errors.typeMismatch('$subtract only supports numeric or date types');
  return addNumbers(a, multiplyNumbers(b, -1));
}

function multiply(obj: unknown, expr: unknown, options: Options): unknown {
  const args = argsOf(obj, expr, options);
  if (args.some(isNullish)) return null;
  for (const n of args) if (!numKind(n)) throw errors.typeMismatch('$multiply only supports numeric types');
  return args.reduce<unknown>((acc, n) => multiplyNumbers(acc, n), 1);
}

function sumOrAvg(kind: 'sum' | 'avg') {
  return (obj: unknown, expr: unknown, options: Options): unknown => {
    const args = argsOf(obj, expr, options);
    // One array argument sums its elements; several arguments sum themselves (arrays ignored).
    const values = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    const sum = new NumericSum();
    for (const v of values) sum.add(v);
    return kind === 'sum' ? sum.value() : sum.average();
  };
}

export const expressionContext = Context.init({
  expression: {
    ...expressionOps,
    $eq: comparison((c) => c === 0),
    $ne: comparison((c) => c !== 0),
    $gt: comparison((c) => c > 0),
    $gte: comparison((c) => c >= 0),
    $lt: comparison((c) => c < 0),
    $lte: comparison((c) => c <= 0),
    $add: add,
    $subtract: subtract,
    $multiply: multiply,
    $sum: sumOrAvg('sum'),
    $avg: sumOrAvg('avg'),
    $cmp: (obj: unknown, expr: unknown, options: Options) => {
      const args = evalExpr(obj, expr, options) as unknown[];
      return compareValues(args[0], args[1]);
    },
  } as never,
  accumulator: accumulatorOps,
  pipeline: pipelineOps,
  projection: projectionOps,
  query: queryOps,
  window: windowOps,
});

/**
 * A mingo aggregator on our operator context. mingo's default export merges its own operators
 * first (and the first registration wins), so it would ignore the overrides above.
 */
/**
 * The command's `let` variables (and an update statement's `c` constants) while it runs: the server
 * runs one command at a time, so they are set around the handler and read by every expression.
 */
let currentVariables: Record<string, unknown> | undefined;

export function withVariables<T>(vars: Record<string, unknown> | undefined, run: () => T): T {
  const previous = currentVariables;
  currentVariables = vars;
  try {
    return run();
  } finally {
    currentVariables = previous;
  }
}

/** Evaluates a `let` (or `c`) document once, as MongoDB does, into variable values. */
export function parseLet(spec: unknown, field: string): Record<string, unknown> {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    throw errors.typeMismatch(`BSON field '${field}' is the wrong type, expected type 'object'`);
  const out: Record<string, unknown> = { ...currentVariables };
  for (const [name, value] of Object.entries(spec)) {
    if (!/^[a-z\u0080-\uffff]/.test(name))
      throw errors.failedToParse(`'${name}' starts with an invalid character for a user variable name`);
    out[name] = withVariables(currentVariables, () => evaluate({}, value));
  }
  return out;
}

export function currentLet(): Record<string, unknown> | undefined {
  return currentVariables;
}

export function mingoPipeline(
  pipeline: object[],
  options: { collectionResolver?: (name: string) => object[]; cloneInput?: boolean } = {},
): BaseAggregator {
  return new BaseAggregator(
    pipeline as never,
    {
      context: expressionContext,
      idKey: '_id',
      useStrictMode: true,
      scriptEnabled: false,
      processingMode: options.cloneInput === false ? ProcessingMode.CLONE_OFF : ProcessingMode.CLONE_INPUT,
      collectionResolver: options.collectionResolver as never,
      variables: currentVariables,
    } as never,
  );
}

const exprOptions = {
  context: expressionContext,
  idKey: '_id',
  useStrictMode: true,
  scriptEnabled: false,
  processingMode: ProcessingMode.CLONE_OFF,
};

export function evaluate(doc: unknown, expr: unknown): unknown {
  if (currentVariables) return evalExpr(doc, expr, { ...exprOptions, variables: currentVariables } as never);
  // Fast paths for the overwhelmingly common literal and plain field-path expressions
  // (`{ $sum: 1 }`, `_id: '$status'`); everything else goes through mingo.
  if (expr === null || typeof expr === 'number' || typeof expr === 'boolean') return expr;
  if (typeof expr === 'string') {
    if (!expr.startsWith('$')) return expr;
    if (!expr.startsWith('$$')) {
      let cur: unknown = doc;
      for (const part of expr.slice(1).split('.')) {
        if (Array.isArray(cur)) return evalExpr(doc, expr, exprOptions as never);
        if (cur === null || typeof cur !== 'object') return undefined;
        cur = getField(cur, part);
      }
      return cur;
    }
  }
  return evalExpr(doc, expr, exprOptions as never);
}

export function truthy(v: unknown): boolean {
  return !(v === false || v === null || v === undefined || v === 0);
}
