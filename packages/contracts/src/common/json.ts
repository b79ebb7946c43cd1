import { z } from 'zod';

/**
 * Free-form JSON a request carries and a service keeps as it is (a search's form values, a loan
 * offer, telemetry metadata). Bounded like every other request field
 * (docs/decisions/0067-request-text-length-before-pattern.md): depth, entries, text and key length are
 * capped, and keys that mean
 * something to MongoDB or to JavaScript objects (`$…`, dotted, NUL, `__proto__`, `constructor`,
 * `prototype`) are refused, so such a value can be stored and read back as plain data.
 */
export const JSON_LIMITS = {
  depth: 12,
  /** Values (objects, arrays and scalars) in one field, all levels together. */
  entries: 20_000,
  text: 10_000,
  key: 200,
} as const;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Why a key may not be stored, or null when it may. */
export function unsafeKeyReason(key: string): string | null {
  if (key.length > JSON_LIMITS.key) return `a key longer than ${JSON_LIMITS.key} characters`;
  if (key.startsWith('$')) return `a key starting with '$'`;
  if (key.includes('.')) return 'a key containing a dot';
  if (key.includes('\u0000')) return 'a key containing NUL';
  if (FORBIDDEN_KEYS.has(key)) return `the key '${key}'`;
  return null;
}

/** The first reason a value is not plain, bounded JSON, or null when it is. Iterative: no deep recursion. */
export function jsonProblem(value: unknown): string | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let entries = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (++entries > JSON_LIMITS.entries) return `more than ${JSON_LIMITS.entries} values`;
    if (current === null || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'a number that is not finite';
      continue;
    }
    if (typeof current === 'string') {
      if (current.length > JSON_LIMITS.text) return `text longer than ${JSON_LIMITS.text} characters`;
      continue;
    }
    if (typeof current !== 'object') return `a value of type ${typeof current}`;
    if (depth >= JSON_LIMITS.depth) return `nesting deeper than ${JSON_LIMITS.depth}`;
    if (Array.isArray(current)) {
      for (const item of current) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    const proto = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== null) return 'an object that is not plain';
    for (const key of Object.keys(current)) {
      const reason = unsafeKeyReason(key);
      if (reason) return reason;
      stack.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}

function checked<T extends z.ZodType>(schema: T, label: string) {
  return schema.superRefine((value, ctx) => {
    const problem = jsonProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `${label} holds ${problem}` });
  });
}

/** A JSON object (not an array) within JSON_LIMITS. */
export function jsonObject(label: string, error = `${label} must be an object`) {
  return checked(z.custom<Record<string, unknown>>(isPlainObject, { error }), label);
}

/** An object or an array within JSON_LIMITS (what a search answer may be). */
export function jsonObjectOrArray(label: string, error = `${label} must be an object or an array`) {
  return checked(
    z.custom<Record<string, unknown> | unknown[]>((value) => Array.isArray(value) || isPlainObject(value), {
      error,
    }),
    label,
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
