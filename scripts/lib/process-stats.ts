// CPU time and memory of a process and everything it started, read from /proc: what the
// benchmarks report per process of the stack (a worker's CPU includes its Chromium's).
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The parent pid of every process on the machine, to find each process's children. */
export function parentPids(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended while /proc was read
    }
  }
  return parents;
}

/** A process and all its descendants. */
export function withDescendants(pid: number, parents: Map<number, number> = parentPids()): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++)
    for (const [child, parent] of parents) if (parent === found[i]) found.push(child);
  return found;
}

/** User plus system CPU milliseconds a process has used; 0 once it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** A `Name:   1234 kB` line of a /proc file, in MB; 0 once the process is gone. */
function megabytesIn(file: string, name: string): number {
  try {
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}:`));
    return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Resident memory of a process in MB; 0 once it is gone. */
export const rssMbOf = (pid: number): number => megabytesIn(`/proc/${pid}/status`, 'VmRSS');

/**
 * Proportional set size of a process in MB: its resident pages, each page shared with other
 * processes (the Node binary's code, shared libraries) divided among them. Summed over a stack it is
 * what the stack takes from the machine, where summed RSS counts the Node binary once per process.
 * 0 once the process is gone.
 */
export const pssMbOf = (pid: number): number => megabytesIn(`/proc/${pid}/smaps_rollup`, 'Pss');

/** CPU milliseconds of each named process tree. */
export const cpuSnapshot = (trees: Map<string, number[]>) =>
  new Map([...trees].map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0)]));
