import { PLATFORM_PROCESSES } from '@lsp/contracts';
import { readFileSync } from 'node:fs';
import net from 'node:net';

// The kernel hands out ports of its ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range,
// 32768-60999 by default) to every outgoing connection, so a port chosen inside it can be taken between
// the check that it is free and the listen. Every port chosen here lies outside that range. The same
// rules, for the plain-Node scripts, are in scripts/lib/ports.mjs (a unit test holds the two together).

export interface PortRange {
  low: number;
  high: number;
}

/** Where the range cannot be read: the union of Linux's default range and the IANA one (macOS, Windows). */
export const ASSUMED_EPHEMERAL_RANGE: PortRange = { low: 32768, high: 65535 };

/** The kernel's ephemeral port range from the text of ip_local_port_range ("32768\t60999"), or null. */
export function parseEphemeralRange(text: string): PortRange | null {
  const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(text);
  if (!match) return null;
  const low = Number(match[1]);
  const high = Number(match[2]);
  return low >= 1 && low <= high && high <= 65535 ? { low, high } : null;
}

/** This machine's ephemeral port range: read from /proc where there is one, else the assumed one. */
export function ephemeralPortRange(): PortRange {
  try {
    return (
      parseEphemeralRange(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')) ??
      ASSUMED_EPHEMERAL_RANGE
    );
  } catch {
    return ASSUMED_EPHEMERAL_RANGE;
  }
}

/** True when a port may be chosen: unprivileged, and outside the ephemeral range. */
export function isChoosablePort(port: number, range: PortRange = ephemeralPortRange()): boolean {
  return Number.isInteger(port) && port >= 1024 && port <= 65535 && (port < range.low || port > range.high);
}

/**
 * A process's port in a stack started at a port offset. `npm start` (offset 0) uses the default ports;
 * a test stack adds its offset to the default's last four digits, so MongoDB's 27017 sits at offset + 7017
 * beside the services (3000-8080) and the whole stack fits in the ten thousand ports above its offset.
 */
export function stackPort(defaultPort: number, offset: number): number {
  return offset === 0 ? defaultPort : offset + (defaultPort % 10000);
}

/**
 * Where single ports (a Redis, a Kafka broker, a test's server) are chosen: above the ephemeral range when
 * there is room (Linux: 61000-65535), else the four thousand below it; test stacks' offsets stay under both.
 */
export function singlePortRange(range: PortRange = ephemeralPortRange()): PortRange {
  if (65535 - range.high >= 1000) return { low: range.high + 1, high: 65535 };
  return { low: Math.max(1024, range.low - 4000), high: range.low - 1 };
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port }, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on now, chosen at random outside the ephemeral range (see singlePortRange). */
export async function freePort(range: PortRange = singlePortRange()): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = range.low + Math.floor(Math.random() * (range.high - range.low + 1));
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port between ${range.low} and ${range.high} after 100 tries`);
}

/** The development mail catcher's SMTP port (notifications' MAIL_CATCHER_SMTP_PORT on one machine). */
const MAIL_CATCHER_SMTP_PORT = 1025;

/** Every default port of the single-machine stack: the process registry's, and the mail catcher's. */
export const STACK_PORTS = [...PLATFORM_PROCESSES.map((proc) => proc.port), MAIL_CATCHER_SMTP_PORT];

/** Every port of a stack started at this offset. */
export function stackPortsAt(offset: number): number[] {
  return STACK_PORTS.map((port) => stackPort(port, offset));
}

/**
 * The offsets from `from` to `to` (steps of 1000) whose every port is choosable (outside the ephemeral
 * range) and none of which is a port of `npm start`'s own stack, which may start later.
 */
export function stackPortOffsets(
  from: number,
  to: number,
  range: PortRange = ephemeralPortRange(),
): number[] {
  const offsets: number[] = [];
  for (let offset = from; offset <= to; offset += 1000) {
    if (offset === 0) continue;
    const ports = stackPortsAt(offset);
    if (ports.every((port) => isChoosablePort(port, range) && !STACK_PORTS.includes(port)))
      offsets.push(offset);
  }
  return offsets;
}

/**
 * The first of those offsets at which every port of the stack is free, so browser tests, benchmarks and
 * chaos runs can each start a whole stack beside `npm start` and beside each other.
 */
export async function freeStackPortOffset(from: number, to = from + 10000): Promise<number> {
  const range = ephemeralPortRange();
  const offsets = stackPortOffsets(from, to, range);
  for (const offset of offsets) {
    const free = await Promise.all(stackPortsAt(offset).map(portIsFree));
    if (free.every(Boolean)) return offset;
  }
  throw new Error(
    `no free set of ports for a stack between offsets ${from} and ${to} outside the ephemeral range ` +
      `${range.low}-${range.high} (offsets tried: ${offsets.join(', ') || 'none'})`,
  );
}
