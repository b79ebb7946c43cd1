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

/**
 * The other commands this server implements whose IDL is `strict: true` in MongoDB 7.0 (a command
 * that does not say so is strict too: the IDL's default). Each lists its own fields besides the
 * command name; none defines a `$_` field, so none is let through. Keyed by the name MongoDB puts
 * in the message (`deleteIndexes` is reported as `dropIndexes`).
 */
const STRICT_COMMANDS: Record<string, string[]> = {
  // src/mongo/db/commands/create.idl
  create: [
    'capped',
    'autoIndexId',
    'idIndex',
    'size',
    'max',
    'storageEngine',
    'validator',
    'validationLevel',
    'validationAction',
    'indexOptionDefaults',
    'viewOn',
    'pipeline',
    'collation',
    'recordPreImages',
    'changeStreamPreAndPostImages',
    'timeseries',
    'clusteredIndex',
    'expireAfterSeconds',
    'encryptedFields',
    'temp',
    'flags',
  ],
  // src/mongo/db/drop.idl
  drop: ['collectionUUID'],
  // src/mongo/db/drop_database.idl: no fields of its own.
  dropDatabase: [],
  // src/mongo/db/list_collections.idl
  listCollections: ['cursor', 'filter', 'nameOnly', 'authorizedCollections', 'includePendingDrops'],
  // src/mongo/db/commands/list_databases.idl
  listDatabases: ['nameOnly', 'authorizedDatabases', 'filter'],
  // src/mongo/db/commands/rename_collection.idl
  renameCollection: ['to', 'dropTarget', 'stayTemp', 'collectionUUID'],
  // src/mongo/db/create_indexes.idl (the index specs are `array<object>`, checked by
  // checkIndexSpecFields with index_key_validate's code 197, not 40415).
  createIndexes: [
    'v',
    'indexes',
    'ignoreUnknownIndexOptions',
    'commitQuorum',
    'isTimeseriesNamespace',
    'collectionUUID',
  ],
  // src/mongo/db/list_indexes.idl
  listIndexes: ['cursor', 'includeBuildUUIDs', 'includeIndexBuildInfo', 'isTimeseriesNamespace'],
  // src/mongo/db/drop_indexes.idl (DropIndexesRequest, chained inline)
  dropIndexes: ['index', 'isTimeseriesNamespace', 'collectionUUID'],
  // src/mongo/db/coll_mod.idl (CollModRequest, chained inline)
  collMod: [
    'index',
    'validator',
    'validationLevel',
    'validationAction',
    'viewOn',
    'pipeline',
    'recordPreImages',
    'changeStreamPreAndPostImages',
    'expireAfterSeconds',
    'timeseries',
    'timeseriesBucketsMayHaveMixedSchemaData',
    'dryRun',
    'collectionUUID',
    'cappedSize',
    'cappedMax',
  ],
  // src/mongo/db/query/getmore_command.idl
  getMore: ['collection', 'batchSize', 'maxTimeMS', 'term', 'lastKnownCommittedOpTime'],
  // src/mongo/db/query/kill_cursors.idl
  killCursors: ['cursors'],
  // src/mongo/db/commands/txn_cmds.idl
  commitTransaction: ['commitTimestamp', 'recoveryToken'],
  abortTransaction: ['recoveryToken'],
  // src/mongo/db/commands/sessions_commands.idl (endSessionsFromClient: the array is the
  // command's own value).
  endSessions: [],
  // src/mongo/db/commands/explain.idl (the explained command is parsed by its own IDL).
  explain: ['verbosity'],
  // src/mongo/db/commands/search_index_commands.idl: parsed before Community refuses them (115).
  createSearchIndexes: ['indexes'],
  dropSearchIndex: ['name', 'id'],
  updateSearchIndex: ['name', 'id', 'definition'],
};

export const STRICT_COMMAND_FIELDS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(STRICT_COMMANDS).map(([name, fields]) => [name, new Set([name, ...fields])]),
);

// The spelling MongoDB reports for each name the dispatcher accepts (aliases and any letter case).
const STRICT_NAMES = new Map<string, string>([
  ...Object.keys(STRICT_COMMANDS).map((n): [string, string] => [n.toLowerCase(), n]),
  ['deleteindexes', 'dropIndexes'],
]);

/**
 * Throws 40415 for a field that the strict command `name` (as sent) does not define; commands not
 * listed here (hello, ping, buildInfo, serverStatus, ...) accept anything, as on MongoDB.
 */
export function checkStrictCommandFields(name: string, cmd: Doc): void {
  const canonical = STRICT_NAMES.get(name.toLowerCase());
  if (canonical === undefined) return;
  const allowed = STRICT_COMMAND_FIELDS[canonical];
  let first = true;
  for (const key of Object.keys(cmd)) {
    // The first field is the command itself, whatever its letter case.
    if (first) {
      first = false;
      continue;
    }
    if (allowed.has(key) || GENERIC.has(key)) continue;
    throw unknownField(`${canonical}.${key}`);
  }
}

/** A field every command accepts (generic_argument.idl): not an option of the command. */
export function isGenericField(key: string): boolean {
  return GENERIC.has(key);
}

/**
 * Fields an index specification may have (MongoDB 7.0 NewIndexSpec in create_indexes.idl, which
 * index_key_validate checks against: the command declares `indexes` as `array<object>`).
 */
const INDEX_SPEC_FIELDS = new Set([
  'v',
  'key',
  'name',
  'ns',
  'background',
  'unique',
  'hidden',
  'partialFilterExpression',
  'sparse',
  'expireAfterSeconds',
  'storageEngine',
  'weights',
  'default_language',
  'language_override',
  'textIndexVersion',
  '2dsphereIndexVersion',
  'bits',
  'min',
  'max',
  'bucketSize',
  'collation',
  'wildcardProjection',
  'columnstoreProjection',
  'columnstoreCompressor',
  'coarsestIndexedLevel',
  'finestIndexedLevel',
  'dropDups',
  'originalSpec',
  'clustered',
  'prepareUnique',
]);

/**
 * An index option MongoDB does not know: 197 InvalidIndexSpecificationOption, or, with
 * `ignoreUnknownIndexOptions`, the spec without it (MongoDB drops such options before building).
 */
export function checkIndexSpecFields(spec: Doc, ignoreUnknown: boolean): Doc {
  const unknown = Object.keys(spec).filter((k) => !INDEX_SPEC_FIELDS.has(k));
  if (unknown.length === 0) return spec;
  if (!ignoreUnknown)
    throw new MongoServerError(
      197,
      'InvalidIndexSpecificationOption',
      `The field '${unknown[0]}' is not valid for an index specification. Specification: ${JSON.stringify(spec)}`,
    );
  const kept: Doc = {};
  for (const [k, v] of Object.entries(spec)) if (INDEX_SPEC_FIELDS.has(k)) kept[k] = v;
  return kept;
}

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
