// Aggregation expressions run on mingo, with comparison operators replaced by ones that follow
// MongoDB's cross-type order (mingo treats missing/null and Long/Decimal128 differently).
import { Context, ProcessingMode } from 'mingo';
import { evalExpr } from 'mingo/core';
import * as accumulatorOps from 'mingo/operators/accumulator';
import * as expressionOps from 'mingo/operators/expression';
import { compareValues } from './values';

type Options = Parameters<typeof evalExpr>[2];

function comparison(test: (c: number) => boolean) {
  return (obj: unknown, expr: unknown, options: Options): unknown => {
    const args = evalExpr(obj, expr, options) as unknown[];
    return test(compareValues(args[0], args[1]));
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
    $cmp: (obj: unknown, expr: unknown, options: Options) => {
      const args = evalExpr(obj, expr, options) as unknown[];
      return compareValues(args[0], args[1]);
    },
  } as never,
  accumulator: accumulatorOps,
});

const exprOptions = { context: expressionContext, idKey: '_id', useStrictMode: true, scriptEnabled: false, processingMode: ProcessingMode.CLONE_OFF };

export function evaluate(doc: unknown, expr: unknown): unknown {
  return evalExpr(doc, expr, exprOptions as never);
}

export function truthy(v: unknown): boolean {
  return !(v === false || v === null || v === undefined || v === 0);
}
