import registry from './processes.json';

/**
 * Every process of the platform, once (`processes.json` beside this file): `npm start` runs them from it,
 * the services take their default ports and each other's default addresses from it, the operations
 * console watches what it lists, the chaos run kills what it lists, and the deployment test holds
 * docker-compose and the Kubernetes manifests to it. Adding a process is adding an entry there.
 */
export type ProcessKind = 'service' | 'worker' | 'static' | 'database';

export interface PlatformProcess {
  name: string;
  /** service: an HTTP API; worker: a queue or render worker serving only probes; static: a frontend's server. */
  kind: ProcessKind;
  /** Its port on one machine (`npm start` adds an offset for test stacks). */
  port: number;
  /** Its source entry point; the images and `npm start` run the compiled file beside it. */
  entry: string;
  /** The path that says it is ready (null: checked by a connection, as the database). */
  health: string | null;
  /** The variable other processes are given its address in (`DIP_URL`), when others call it. */
  urlVariable?: string;
  /** A worker shares the image and the database of this service. */
  partOf?: string;
  /** Platform processes that must be healthy before it starts (infrastructure aside). */
  dependsOn: string[];
  /** Services it asks directly, on demand, for what they own (not start dependencies). */
  asks?: string[];
  /** Off the search path: a 2 MB young generation on one machine (docs/decisions/0081-memory-on-one-machine.md). */
  smallYoungGeneration?: boolean;
}

export const PLATFORM_PROCESSES: readonly PlatformProcess[] = registry.processes as PlatformProcess[];

export function platformProcess(name: string): PlatformProcess {
  const found = PLATFORM_PROCESSES.find((p) => p.name === name);
  if (!found) throw new Error(`no process named ${name} in the platform's registry`);
  return found;
}

/** The default port of a process on one machine. */
export const defaultPortOf = (name: string): number => platformProcess(name).port;

/** The default address of a process on one machine (loopback). */
export const defaultUrlOf = (name: string): string => `http://127.0.0.1:${defaultPortOf(name)}`;
