import { z } from 'zod';

/**
 * Text rules that keep validation linear in the size of a request
 * (docs/decisions/0067-request-text-length-before-pattern.md). Every pattern here is linear under a
 * backtracking engine, and every
 * schema that uses one checks the length first: zod runs `.regex` even after `.max` failed, so the
 * pattern sits behind a `.pipe`, which never runs once the length check has failed.
 */

/** The longest email address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** The longest password taken anywhere (ASVS 2.1.2 asks for at least 64 to be allowed). */
export const PASSWORD_MAX_LENGTH = 1024;
/** The longest numeric text ('£1,000,000,000.00' and spaces) ever read as a number. */
export const NUMERIC_TEXT_MAX_LENGTH = 64;

/**
 * Something, an at sign, something, a dot and something, no whitespace: the spec's email rule. The
 * same language as `^[^\s@]+@[^\s@]+\.[^\s@]+$`, written so that no two ways of matching exist
 * (the domain is its first character, a run without dots, the first dot after it, the rest), so a
 * failing match costs linear time rather than quadratic ('a@' + '.'.repeat(n) + '@').
 */
export const EMAIL_TEXT_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

/**
 * Numeric text after '£', ',' and whitespace are removed: a sign, digits with an optional fraction,
 * or a bare fraction. Unambiguous (`\d+\.?\d*` was not: without the dot it is `\d+\d*`).
 */
export const NUMERIC_TEXT_PATTERN = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * An email field: trimmed, `required` when empty (if given), refused with `invalid` when longer than
 * EMAIL_MAX_LENGTH, and only then matched against the pattern.
 */
export function emailText(messages: { invalid: string; required?: string; type?: string }) {
  let text = z.string({ error: messages.type ?? messages.required ?? messages.invalid }).trim();
  if (messages.required) text = text.min(1, messages.required);
  return text
    .max(EMAIL_MAX_LENGTH, messages.invalid)
    .pipe(z.string().regex(EMAIL_TEXT_PATTERN, messages.invalid));
}

/** A date and time with an offset (ISO 8601), at most 40 characters before the format is checked. */
export function isoDateTimeText(message: string) {
  return z
    .string({ error: message })
    .max(40, message)
    .pipe(z.iso.datetime({ offset: true, error: message }));
}

/**
 * Characters a person's name never holds and that would change how it reads where it is shown (an
 * email's subject, a sender line): control characters (C0, DEL, C1: line breaks, escapes), the line and
 * paragraph separators, and the bidirectional marks, embeddings, overrides and isolates (U+202E turns
 * 'Ann‮fdp.exe' into 'Annexe.pdf').
 */
export const NAME_FORBIDDEN_CHARACTERS = /[\p{Cc}\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/**
 * A name field: its own length rules first (`text`), then refused with `message` when it holds a
 * character of NAME_FORBIDDEN_CHARACTERS (behind a `.pipe`, so only within the length limit).
 */
export function nameText(text: z.ZodString, message: string) {
  return text.pipe(z.string().refine((name) => !NAME_FORBIDDEN_CHARACTERS.test(name), message));
}
