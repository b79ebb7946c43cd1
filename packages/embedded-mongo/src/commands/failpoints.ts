// configureFailPoint with MongoDB's `failCommand` fail point, for tests that must see the server
// fail: an error code (with labels), a writeConcernError, a closed connection or a blocked one.
// Like mongod, the command exists only when the server was started with test commands enabled
// (`enableTestCommands`; the CLI's --enableTestCommands / --setParameter enableTestCommands=1),
// which `npm start` never sets; otherwise it is 59 CommandNotFound.
import { errors } from '../errors';
import { Doc, isPlainObject } from '../query/values';
import { toInt } from './context';

export { FAIL_ACTION, type FailAction } from '../wire/connection';

interface FailCommand {
  mode: 'alwaysOn' | 'times' | 'skip' | 'probability';
  n: number;
  data: Doc;
}

const CODE_NAMES: Record<number, string> = {
  1: 'InternalError',
  2: 'BadValue',
  6: 'HostUnreachable',
  7: 'HostNotFound',
  8: 'UnknownError',
  9: 'FailedToParse',
  11: 'UserNotFound',
  13: 'Unauthorized',
  18: 'AuthenticationFailed',
  20: 'IllegalOperation',
  24: 'LockTimeout',
  43: 'CursorNotFound',
  50: 'MaxTimeMSExpired',
  59: 'CommandNotFound',
  63: 'StaleShardVersion',
  64: 'WriteConcernFailed',
  79: 'UnknownReplWriteConcern',
  89: 'NetworkTimeout',
  91: 'ShutdownInProgress',
  100: 'UnsatisfiableWriteConcern',
  112: 'WriteConflict',
  117: 'ConflictingOperationInProgress',
  133: 'FailedToSatisfyReadPreference',
  134: 'ReadConcernMajorityNotAvailableYet',
  150: 'StaleEpoch',
  189: 'PrimarySteppedDown',
  234: 'RetryChangeStream',
  251: 'NoSuchTransaction',
  262: 'ExceededTimeLimit',
  9001: 'SocketException',
  10107: 'NotWritablePrimary',
  11000: 'DuplicateKey',
  11600: 'InterruptedAtShutdown',
  11602: 'InterruptedDueToReplStateChange',
  13435: 'NotPrimaryNoSecondaryOk',
  13436: 'NotPrimaryOrSecondary',
};

// Codes after which a driver may retry a write; MongoDB 4.4+ labels them RetryableWriteError itself.
const RETRYABLE_CODES = new Set([6, 7, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

export class FailPoints {
  private failCommand: FailCommand | undefined;
  private entered = 0;

  /** The configureFailPoint command. */
  configure(cmd: Doc): Doc {
    const name = cmd.configureFailPoint;
    if (name !== 'failCommand')
      throw errors.notSupported(`the fail point ${JSON.stringify(name)} (only failCommand)`);
    const before = this.entered;
    const mode = cmd.mode;
    if (mode === 'off') {
      this.failCommand = undefined;
      return { count: before, ok: 1 };
    }
    const data = cmd.data;
    if (!isPlainObject(data) || !Array.isArray(data.failCommands))
      throw errors.badValue("failCommand requires 'data.failCommands', an array of command names");
    let fc: FailCommand;
    if (mode === 'alwaysOn') fc = { mode: 'alwaysOn', n: 0, data };
    else if (isPlainObject(mode) && mode.times !== undefined)
      fc = { mode: 'times', n: toInt(mode.times, 0)!, data };
    else if (isPlainObject(mode) && mode.skip !== undefined)
      fc = { mode: 'skip', n: toInt(mode.skip, 0)!, data };
    else if (isPlainObject(mode) && typeof mode.activationProbability === 'number')
      fc = { mode: 'probability', n: mode.activationProbability, data };
    else throw errors.badValue(`invalid fail point mode ${JSON.stringify(mode)}`);
    if (fc.n < 0) throw errors.badValue('fail point mode counts must not be negative');
    this.failCommand = fc.mode === 'times' && fc.n === 0 ? undefined : fc;
    this.entered = 0;
    return { count: before, ok: 1 };
  }

  /** The fail point's data if it fires for this command (counting it), else undefined. */
  fires(name: string, appName: string | undefined): Doc | undefined {
    const fc = this.failCommand;
    if (!fc || name === 'configureFailPoint') return undefined;
    const names = fc.data.failCommands as unknown[];
    if (!names.includes(name)) return undefined;
    if (typeof fc.data.appName === 'string' && fc.data.appName !== appName) return undefined;
    switch (fc.mode) {
      case 'times':
        fc.n--;
        if (fc.n <= 0) this.failCommand = undefined;
        break;
      case 'skip':
        if (fc.n > 0) {
          fc.n--;
          return undefined;
        }
        break;
      case 'probability':
        if (Math.random() >= fc.n) return undefined;
        break;
      default:
    }
    this.entered++;
    return fc.data;
  }
}

/** The error reply a firing failCommand answers instead of running the command. */
export function failReply(data: Doc, code: number, labels: string[]): Doc {
  const reply: Doc = {
    ok: 0,
    errmsg: "Failing command via 'failCommand' failpoint",
    code,
    codeName: CODE_NAMES[code] ?? `Location${code}`,
  };
  if (labels.length > 0) reply.errorLabels = labels;
  return reply;
}

// Errors after which the whole transaction may run again (MongoDB's isTransientTransactionError):
// write conflicts, lock timeouts, snapshot and routing errors.
const TRANSIENT_CODES = new Set([112, 24, 267, 239, 246, 63, 150, 13388, 249]);
// Write concern errors that say the commit cannot be confirmed on this replica set at all, rather
// than that its outcome is unknown.
const UNSATISFIABLE_WRITE_CONCERN = new Set([100, 79]);

export interface LabelContext {
  name: string;
  retryableWrite: boolean;
  inTxn: boolean;
}

/**
 * The labels MongoDB gives a failed command when the fail point names none (an `errorLabels` array
 * of the fail point replaces them):
 * - RetryableWriteError: a retryable write, commitTransaction or abortTransaction whose error (or
 *   write concern error) has a retryable code;
 * - UnknownTransactionCommitResult: a commitTransaction that may have committed: a retryable error,
 *   MaxTimeMSExpired / ExceededTimeLimit, or a write concern error it could not confirm;
 * - TransientTransactionError: an error inside a transaction after which it can run again: on
 *   commit or abort only NoSuchTransaction without a write concern error and the transient codes
 *   (write conflicts...), on any other command also every retryable code.
 */
export function errorLabelsFor(
  data: Doc,
  failure: { code?: number; writeConcernCode?: number },
  ctx: LabelContext,
): string[] {
  if (Array.isArray(data.errorLabels)) return data.errorLabels.map(String);
  const { code, writeConcernCode } = failure;
  const labels: string[] = [];
  const commit = ctx.name === 'commitTransaction';
  const finishing = commit || ctx.name === 'abortTransaction';
  const retryableCode = code !== undefined && RETRYABLE_CODES.has(code);
  const retryableConcern = writeConcernCode !== undefined && RETRYABLE_CODES.has(writeConcernCode);
  const retryable = (ctx.retryableWrite || finishing) && (retryableCode || retryableConcern);
  if (retryable) labels.push('RetryableWriteError');
  const timedOut = code === 50 || code === 262;
  const unconfirmed = writeConcernCode !== undefined && !UNSATISFIABLE_WRITE_CONCERN.has(writeConcernCode);
  if (commit && (retryable || timedOut || unconfirmed)) labels.push('UnknownTransactionCommitResult');
  if (ctx.inTxn && code !== undefined) {
    let transient = TRANSIENT_CODES.has(code);
    if (finishing) transient ||= code === 251 && writeConcernCode === undefined;
    else transient ||= retryableCode || code === 251;
    if (transient) labels.push('TransientTransactionError');
  }
  return labels;
}
