// Server errors carry MongoDB's numeric code and code name so drivers and mongoose react to them
// exactly as they do against a real mongod (retry labels, duplicate-key handling, etc.).
export class MongoServerError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly labels: string[];
  readonly extra: Record<string, unknown>;

  constructor(
    code: number,
    codeName: string,
    message: string,
    extra: Record<string, unknown> = {},
    labels: string[] = [],
  ) {
    super(message);
    this.code = code;
    this.codeName = codeName;
    this.extra = extra;
    this.labels = labels;
  }

  toReply(): Record<string, unknown> {
    const reply: Record<string, unknown> = {
      ok: 0,
      errmsg: this.message,
      code: this.code,
      codeName: this.codeName,
      ...this.extra,
    };
    if (this.labels.length > 0) reply.errorLabels = this.labels;
    return reply;
  }
}

export const errors = {
  badValue: (msg: string) => new MongoServerError(2, 'BadValue', msg),
  failedToParse: (msg: string) => new MongoServerError(9, 'FailedToParse', msg),
  typeMismatch: (msg: string) => new MongoServerError(14, 'TypeMismatch', msg),
  illegalOperation: (msg: string) => new MongoServerError(20, 'IllegalOperation', msg),
  namespaceNotFound: (msg: string) => new MongoServerError(26, 'NamespaceNotFound', msg),
  indexNotFound: (msg: string) => new MongoServerError(27, 'IndexNotFound', msg),
  pathNotViable: (msg: string) => new MongoServerError(28, 'PathNotViable', msg),
  conflictingUpdateOperators: (msg: string) => new MongoServerError(40, 'ConflictingUpdateOperators', msg),
  cursorNotFound: (id: bigint) => new MongoServerError(43, 'CursorNotFound', `cursor id ${id} not found`),
  namespaceExists: (ns: string) =>
    new MongoServerError(48, 'NamespaceExists', `Collection ${ns} already exists.`),
  commandNotFound: (name: string) =>
    new MongoServerError(59, 'CommandNotFound', `no such command: '${name}'`),
  immutableField: (msg: string) => new MongoServerError(66, 'ImmutableField', msg),
  invalidOptions: (msg: string) => new MongoServerError(72, 'InvalidOptions', msg),
  invalidNamespace: (msg: string) => new MongoServerError(73, 'InvalidNamespace', msg),
  indexOptionsConflict: (msg: string) => new MongoServerError(85, 'IndexOptionsConflict', msg),
  indexKeySpecsConflict: (msg: string) => new MongoServerError(86, 'IndexKeySpecsConflict', msg),
  writeConflict: () =>
    new MongoServerError(
      112,
      'WriteConflict',
      'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
      {},
      ['TransientTransactionError'],
    ),
  noSuchTransaction: (txnNumber: bigint) =>
    new MongoServerError(
      251,
      'NoSuchTransaction',
      `Transaction with { txnNumber: ${txnNumber} } has been aborted.`,
      {},
      ['TransientTransactionError'],
    ),
  transactionCommitted: (txnNumber: bigint) =>
    new MongoServerError(
      256,
      'TransactionCommitted',
      `Transaction with { txnNumber: ${txnNumber} } has been committed.`,
    ),
  // A write, index or catalog command addressed to a view.
  viewNotCollection: (ns: string) =>
    new MongoServerError(166, 'CommandNotSupportedOnView', `Namespace ${ns} is a view, not a collection`),
  optionNotSupportedOnView: (msg: string) => new MongoServerError(167, 'OptionNotSupportedOnView', msg),
  operationNotSupportedInTransaction: (msg: string) =>
    new MongoServerError(263, 'OperationNotSupportedInTransaction', msg),
  tooLarge: (size: number) =>
    new MongoServerError(
      10334,
      'BSONObjectTooLarge',
      `BSONObj size: ${size} (0x${size.toString(16).toUpperCase()}) is invalid. Size must be between 0 and 16793600(16MB)`,
    ),
  indexNotAllowed: (msg: string) => new MongoServerError(67, 'CannotCreateIndex', msg),
  // MongoDB's code for writes refused while the disk is full; other disk faults are InternalError.
  // Neither is retryable, so drivers hand the error to the application instead of spinning on it.
  diskFault: (msg: string, space: boolean) =>
    space
      ? new MongoServerError(14031, 'OutOfDiskSpace', msg)
      : new MongoServerError(1, 'InternalError', msg),
  // What the embedded server does not implement: a server error the driver reports as such, never
  // a result that differs from MongoDB's.
  notSupported: (what: string) =>
    new MongoServerError(115, 'CommandNotSupported', `${what} is not supported by the embedded server`),
  // MongoDB 7.0 Community's answer to the Atlas Search commands and stages.
  atlasOnly: () =>
    new MongoServerError(115, 'CommandNotSupported', 'Search index commands are only supported with Atlas.'),
  location: (code: number, msg: string) => new MongoServerError(code, `Location${code}`, msg),
};

export function duplicateKey(
  ns: string,
  indexName: string,
  keyPattern: Record<string, unknown>,
  keyValue: Record<string, unknown>,
  collation?: Record<string, unknown>,
): MongoServerError {
  const show = (doc: Record<string, unknown>) =>
    Object.entries(doc)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(', ');
  // MongoDB names the index's collation when it has one.
  const withCollation = collation ? ` collation: { ${show(collation)} }` : '';
  return new MongoServerError(
    11000,
    'DuplicateKey',
    `E11000 duplicate key error collection: ${ns} index: ${indexName}${withCollation} dup key: { ${show(keyValue)} }`,
    {
      keyPattern,
      keyValue,
    },
  );
}

/** An error thrown by mingo (expressions, pipeline stages) as MongoDB's error where one is known. */
export function fromExpressionError(err: unknown): MongoServerError | undefined {
  if (!(err instanceof Error) || err instanceof MongoServerError) return undefined;
  const undefinedVar = /^Use of undefined variable: (.*)$/.exec(err.message);
  if (undefinedVar)
    return new MongoServerError(17276, 'Location17276', `Use of undefined variable: ${undefinedVar[1]}`);
  return undefined;
}
