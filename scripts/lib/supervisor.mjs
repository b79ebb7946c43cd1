// Keeps the processes of the single-machine stack running: a process that exits when nobody asked
// it to is started again after a growing pause, and given up on (with a clear message) when it keeps
// crashing, so one broken service cannot spin the machine while the others go on serving.
import { EventEmitter } from 'node:events';

/** Pauses before each restart; the last one repeats. */
export const RESTART_BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
/** This many crashes inside the window and the process is given up on. */
export const MAX_CRASHES = 5;
export const CRASH_WINDOW_MS = 60_000;

/**
 * @typedef {object} ProcessStatus
 * @property {string} name
 * @property {'running'|'restarting'|'given-up'|'stopped'} state
 * @property {number|null} pid
 * @property {number} restarts      restarts since the stack started
 * @property {string} startedAt     when the current run of the process began (ISO)
 * @property {string|null} lastExit how the previous run ended, e.g. 'code 1' or 'SIGKILL'
 */

export class Supervisor extends EventEmitter {
  /**
   * @param {object} [opts]
   * @param {number[]} [opts.backoffMs]
   * @param {number} [opts.maxCrashes]
   * @param {number} [opts.windowMs]
   * @param {(name: string, text: string) => void} [opts.say]  where the supervisor's own messages go
   */
  constructor({
    backoffMs = RESTART_BACKOFF_MS,
    maxCrashes = MAX_CRASHES,
    windowMs = CRASH_WINDOW_MS,
    say,
  } = {}) {
    super();
    this.backoffMs = backoffMs;
    this.maxCrashes = maxCrashes;
    this.windowMs = windowMs;
    this.say = say ?? ((name, text) => process.stdout.write(`[${name}] ${text}\n`));
    /** @type {Map<string, {spawn: () => import('node:child_process').ChildProcess, child: import('node:child_process').ChildProcess|null, status: ProcessStatus, crashes: number[], timer: NodeJS.Timeout|null}>} */
    this.processes = new Map();
    this.stopping = false;
  }

  /** Starts a process and keeps it running; `spawn` is called again for every restart. */
  start(name, spawn) {
    const entry = {
      spawn,
      child: null,
      crashes: [],
      timer: null,
      status: {
        name,
        state: 'running',
        pid: null,
        restarts: 0,
        startedAt: new Date().toISOString(),
        lastExit: null,
      },
    };
    this.processes.set(name, entry);
    this.run(entry);
    return entry.child;
  }

  run(entry) {
    const child = entry.spawn();
    entry.child = child;
    Object.assign(entry.status, {
      state: 'running',
      pid: child.pid ?? null,
      startedAt: new Date().toISOString(),
    });
    this.emit('change', this.status());
    child.once('exit', (code, signal) => this.exited(entry, child, code, signal));
  }

  exited(entry, child, code, signal) {
    if (entry.child !== child) return;
    entry.status.lastExit = signal ?? `code ${code}`;
    entry.status.pid = null;
    if (this.stopping || entry.status.state === 'stopped') {
      entry.status.state = 'stopped';
      this.emit('change', this.status());
      return;
    }
    const now = Date.now();
    entry.crashes = [...entry.crashes.filter((t) => now - t < this.windowMs), now];
    const { name } = entry.status;
    if (entry.crashes.length >= this.maxCrashes) {
      entry.status.state = 'given-up';
      this.say(
        name,
        `crashed ${entry.crashes.length} times in ${Math.round(this.windowMs / 1000)} s (last: ${entry.status.lastExit}); ` +
          'not restarting it. The rest of the platform keeps running; see its log lines above, fix, and start again.',
      );
      this.emit('change', this.status());
      this.emit('given-up', name);
      return;
    }
    const pause = this.backoffMs[Math.min(entry.crashes.length - 1, this.backoffMs.length - 1)];
    entry.status.state = 'restarting';
    this.say(name, `exited (${entry.status.lastExit}); restarting in ${(pause / 1000).toFixed(1)} s`);
    this.emit('change', this.status());
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (this.stopping) return;
      entry.status.restarts += 1;
      this.run(entry);
      this.say(name, `restarted (restart ${entry.status.restarts}, pid ${entry.status.pid})`);
    }, pause);
  }

  /** @returns {boolean} whether any process has been given up on */
  anyGivenUp() {
    return [...this.processes.values()].some((e) => e.status.state === 'given-up');
  }

  /** @returns {ProcessStatus[]} */
  status() {
    return [...this.processes.values()].map((e) => ({ ...e.status }));
  }

  /** Stops every process in the given order (names), all at once within each step; SIGKILL after `graceMs`. */
  async stopAll(graceMs = 15000) {
    this.stopping = true;
    const entries = [...this.processes.values()].reverse();
    for (const entry of entries) if (entry.timer) clearTimeout(entry.timer);
    await Promise.all(
      entries.map(
        ({ child }) =>
          new Promise((resolve) => {
            if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    for (const entry of entries) entry.status.state = 'stopped';
    this.emit('change', this.status());
  }
}

/** One line per process, as `npm start -- status` prints it. */
export function formatStatusTable(statuses, now = Date.now()) {
  const rows = statuses.map((s) => [
    s.name,
    s.state,
    s.pid === null ? '-' : String(s.pid),
    String(s.restarts),
    s.state === 'running' ? formatDuration(now - Date.parse(s.startedAt)) : '-',
    s.lastExit ?? '-',
  ]);
  const header = ['process', 'state', 'pid', 'restarts', 'uptime', 'last exit'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function formatDuration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}
