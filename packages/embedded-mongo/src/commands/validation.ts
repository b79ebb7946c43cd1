// Collection validators (query-operator form): create / collMod set `validator`, `validationLevel`
// (strict, moderate, off) and `validationAction` (error, warn). A write that does not match is
// 121 DocumentValidationFailure with MongoDB 5.0+'s errInfo (failingDocumentId and the clauses that
// failed); `bypassDocumentValidation` skips the check, `warn` lets the write through.
import { MongoServerError, errors } from '../errors';
import { withCollation } from '../query/collation';
import { matchDocument, leavesOf } from '../query/match';
import { Doc, isPlainObject } from '../query/values';
import { Collection } from '../storage/collection';

const LEVELS = new Set(['off', 'strict', 'moderate']);
const ACTIONS = new Set(['error', 'warn']);

/** Checks the validation options of create / collMod before anything is stored. */
export function checkValidationOptions(options: Doc): void {
  const v = options.validator;
  if (v !== undefined) {
    if (!isPlainObject(v)) throw errors.typeMismatch("'validator' must be an object");
    for (const key of Object.keys(v)) {
      if (key === '$jsonSchema') throw errors.notSupported('$jsonSchema validators');
      if (['$where', '$text', '$near', '$nearSphere'].includes(key))
        throw errors.badValue(`${key} is not allowed inside of a $jsonSchema or validator`);
    }
    // Malformed operators fail now, not on the first write.
    matchDocument({}, v);
  }
  if (options.validationLevel !== undefined && !LEVELS.has(String(options.validationLevel)))
    throw errors.badValue(
      `Enumeration value '${String(options.validationLevel)}' for field 'validationLevel' is not a valid value.`,
    );
  if (options.validationAction !== undefined && !ACTIONS.has(String(options.validationAction)))
    throw errors.badValue(
      `Enumeration value '${String(options.validationAction)}' for field 'validationAction' is not a valid value.`,
    );
}

/**
 * Throws 121 if `doc` may not be written into `coll`. `before` is the document an update replaces
 * (under `moderate`, a document that already failed validation may be updated freely).
 */
export function validateWrite(coll: Collection, doc: Doc, before: Doc | undefined, bypass: boolean): void {
  const validator = coll.options.validator;
  if (!isPlainObject(validator) || bypass) return;
  // The validator compares under the collection's default collation, whatever the write's own is.
  withCollation(coll.collator, () => check(coll, validator, doc, before));
}

function check(coll: Collection, validator: Doc, doc: Doc, before: Doc | undefined): void {
  const level = coll.options.validationLevel ?? 'strict';
  if (level === 'off') return;
  if (matchDocument(doc, validator)) return;
  if (level === 'moderate' && before && !matchDocument(before, validator)) return;
  if ((coll.options.validationAction ?? 'error') === 'warn') return;
  throw new MongoServerError(121, 'DocumentValidationFailure', 'Document failed validation', {
    errInfo: { failingDocumentId: doc._id, details: explain(doc, validator) },
  });
}

/** MongoDB's `details`: the top-level clauses that were not satisfied. */
function explain(doc: Doc, validator: Doc): Doc {
  const clauses = Object.entries(validator).map(([k, v]) => ({ [k]: v }));
  const failed = clauses
    .map((clause, index) => ({ index, clause }))
    .filter(({ clause }) => !matchDocument(doc, clause));
  if (clauses.length === 1) return clauseDetails(doc, failed[0]?.clause ?? validator);
  return {
    operatorName: '$and',
    clausesNotSatisfied: failed.map(({ index, clause }) => ({ index, details: clauseDetails(doc, clause) })),
  };
}

function clauseDetails(doc: Doc, clause: Doc): Doc {
  const [field, cond] = Object.entries(clause)[0];
  if (field.startsWith('$'))
    return { operatorName: field, specifiedAs: clause, reason: 'expression did not match' };
  const op = isPlainObject(cond) && Object.keys(cond)[0]?.startsWith('$') ? Object.keys(cond)[0] : '$eq';
  const values = leavesOf(doc, field)
    .map((l) => l.value)
    .filter((v) => v !== undefined);
  const details: Doc = { operatorName: op, specifiedAs: clause };
  if (values.length === 0) details.reason = op === '$exists' ? 'path does not exist' : 'field was missing';
  else {
    details.reason =
      op === '$type'
        ? 'type did not match'
        : op === '$regex'
          ? 'regular expression did not match'
          : 'comparison failed';
    details.consideredValue = values[0];
  }
  return details;
}
