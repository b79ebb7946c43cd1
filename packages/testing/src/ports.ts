import { PLATFORM_PROCESSES } from '@lsp/contracts';
import {
  type PortRange,
  ephemeralPortRange,
  isChoosablePort,
  portIsFree,
  stackPort,
} from '../../../scripts/lib/ports.mjs';

// The kernel hands out ports of its ephemeral range to every outgoing connection, so every port chosen
// here lies outside that range. The rules for single ports and a stack's ports are written once, in
// scripts/lib/ports.mjs, which the plain-Node scripts (stack.mjs, kafka-broker.mjs) use before anything
// is built; this module adds the stack's own ports, which come from the contracts' process registry.
export {
  ASSUMED_EPHEMERAL_RANGE,
  type PortRange,
  ephemeralPortRange,
  freePort,
  isChoosablePort,
  parseEphemeralRange,
  portIsFree,
  singlePortRange,
  stackPort,
} from '../../../scripts/lib/ports.mjs';

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
