// MongoDB parses each command with its IDL: a field it does not know is error 40415 ("BSON field
// 'update.updates.sort' is an unknown field.") and the command does nothing. The embedded server
// checks the write commands and their statements the same way (MongoDB 7.0's field lists), so a
// test that passes here does not rely on an option a real server would refuse.
import { MongoServerError } from '../errors';
import { Doc } from '../query/values';

/** Fields every command accepts (MongoDB 7.0 generic_argument.idl), plus the ones drivers add. */
const GENERIC = new Set([
  '$db',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'maxTimeMS',
  'readConcern',
  'writeConcern',
  'lsid',
  'clientOperationKey',
  'txnNumber',
  'txnRetryCounter',
  'autocommit',
  'startTransaction',
  'stmtId',
  'comment',
  '$readPreference',
  '$clusterTime',
  '$audit',
  '$client',
  '$configServerState',
  'allowImplicitCollectionCreation',
  '$oplogQueryData',
  '$replData',
  '$gleStats',
  '$configTime',
  '$topologyTime',
  '$queryOptions',
  'databaseVersion',
  'shardVersion',
  'tracking_info',
  'coordinator',
  'maxTimeMSOpOnly',
  'usesDefaultMaxTimeMS',
  'mayBypassWriteBlocking',
]);

const WRITE_BASE = [
  'ordered',
  'bypassDocumentValidation',
  'stmtIds',
  'isTimeseriesNamespace',
  'collectionUUID',
  'encryptionInformation',
];

export const COMMAND_FIELDS: Record<string, Set<string>> = {
  insert: new Set(['insert', 'documents', ...WRITE_BASE]),
  update: new Set(['update', 'updates', 'let', ...WRITE_BASE]),
  delete: new Set(['delete', 'deletes', 'let', ...WRITE_BASE]),
  findAndModify: new Set([
    'findAndModify',
    'findandmodify',
    'query',
    'fields',
    'sort',
    'hint',
    'collation',
    'arrayFilters',
    'remove',
    'update',
    'new',
    'upsert',
    'bypassDocumentValidation',
    'let',
    'encryptionInformation',
    'sampleId',
    '$_allowShardKeyUpdatesWithoutFullShardKeyInQuery',
  ]),
};

// Read commands (MongoDB 7.0 find_command.idl, aggregate_command.idl, count_cmd.idl,
// distinct.idl); internal `$_` fields are let through.
export const READ_COMMAND_FIELDS: Record<string, Set<string>> = {
  find: new Set([
    'find',
    'filter',
    'projection',
    'sort',
    'hint',
    'skip',
    'limit',
    'batchSize',
    'singleBatch',
    'max',
    'min',
    'returnKey',
    'showRecordId',
    'tailable',
    'oplogReplay',
    'noCursorTimeout',
    'awaitData',
    'allowPartialResults',
    'collation',
    'allowDiskUse',
    'let',
    'readOnce',
    'allowSpeculativeMajorityRead',
    'term',
    'encryptionInformation',
    'collectionUUID',
  ]),
  aggregate: new Set([
    'aggregate',
    'pipeline',
    'explain',
    'allowDiskUse',
    'cursor',
    'bypassDocumentValidation',
    'collation',
    'hint',
    'let',
    'isMapReduceCommand',
    'collectionUUID',
    'exchange',
    'runtimeConstants',
    'fromMongos',
    'needsMerge',
    'passthroughToShard',
    'encryptionInformation',
  ]),
  count: new Set([
    'count',
    'query',
    'limit',
    'skip',
    'hint',
    'collation',
    'fields',
    'encryptionInformation',
    'mirrored',
    'sampleId',
  ]),
  distinct: new Set(['distinct', 'key', 'query', 'collation', 'hint', 'mirrored', 'sampleId']),
};

/** Throws 40415 for a field the read command `name` does not define (internal `$_` fields pass). */
export function checkReadCommandFields(name: string, cmd: Doc): void {
  const allowed = READ_COMMAND_FIELDS[name];
  if (!allowed) return;
  for (const key of Object.keys(cmd)) {
    if (allowed.has(key) || GENERIC.has(key) || key.startsWith('$_')) continue;
    throw unknownField(`${name}.${key}`);
  }
}

/** MongoDB 7.0's update statement: `sort` arrived only in 8.0. */
export const UPDATE_STATEMENT = new Set([
  'q',
  'u',
  'c',
  'arrayFilters',
  'hint',
  'multi',
  'upsert',
  'upsertSupplied',
  'collation',
  'sampleId',
  '$_allowShardKeyUpdatesWithoutFullShardKeyInQuery',
]);

export const DELETE_STATEMENT = new Set(['q', 'limit', 'hint', 'collation', 'sampleId']);

export function unknownField(path: string): MongoServerError {
  return new MongoServerError(40415, 'Location40415', `BSON field '${path}' is an unknown field.`);
}

/** Throws 40415 for the first field of `cmd` that command `name` does not define. */
export function checkCommandFields(name: string, cmd: Doc): void {
  const allowed = COMMAND_FIELDS[name];
  if (!allowed) return;
  for (const key of Object.keys(cmd)) {
    if (!allowed.has(key) && !GENERIC.has(key)) throw unknownField(`${name}.${key}`);
  }
}

/** Throws 40415 for an unknown field of one statement (`update.updates.sort`). */
export function checkStatementFields(path: string, statement: Doc, allowed: Set<string>): void {
  for (const key of Object.keys(statement)) if (!allowed.has(key)) throw unknownField(`${path}.${key}`);
}
