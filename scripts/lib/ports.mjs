// The ports test stacks, benchmarks and chaos runs choose, and who holds a port one of them cannot bind.
// Plain Node (no dependencies): stack.mjs, kafka-broker.mjs and backup.mjs use it before anything is built.
//
// The kernel hands out ports of its ephemeral range (Linux: /proc/sys/net/ipv4/ip_local_port_range,
// 32768-60999 by default) to every outgoing connection, so a port chosen inside it can be taken between
// the check that it is free and the listen. Every port chosen here lies outside that range.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import net from 'node:net';

/** Where the range cannot be read: the union of Linux's default range and the IANA one (macOS, Windows). */
export const ASSUMED_EPHEMERAL_RANGE = { low: 32768, high: 65535 };

/** The kernel's ephemeral port range from the text of ip_local_port_range ("32768\t60999"), or null. */
export function parseEphemeralRange(text) {
  const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(text ?? '');
  if (!match) return null;
  const low = Number(match[1]);
  const high = Number(match[2]);
  return low >= 1 && low <= high && high <= 65535 ? { low, high } : null;
}

/** This machine's ephemeral port range: read from /proc where there is one, else the assumed one. */
export function ephemeralPortRange() {
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
export function isChoosablePort(port, range = ephemeralPortRange()) {
  return Number.isInteger(port) && port >= 1024 && port <= 65535 && (port < range.low || port > range.high);
}

/**
 * A process's port in a stack started at a port offset. `npm start` (offset 0) uses the default ports;
 * a test stack adds its offset to the default's last four digits, so MongoDB's 27017 sits at offset + 7017
 * beside the services (3000-8080) and the whole stack fits in the ten thousand ports above its offset.
 */
export function stackPort(defaultPort, offset) {
  return offset === 0 ? defaultPort : offset + (defaultPort % 10000);
}

/** Where single ports (a Redis, a Kafka broker, a restore's MongoDB) are chosen: above the ephemeral range when
 * there is room (Linux: 61000-65535), else the four thousand below it; test stacks' offsets stay under both. */
export function singlePortRange(range = ephemeralPortRange()) {
  if (65535 - range.high >= 1000) return { low: range.high + 1, high: 65535 };
  return { low: Math.max(1024, range.low - 4000), high: range.low - 1 };
}

export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port }, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on now, chosen at random outside the ephemeral range (see singlePortRange). */
export async function freePort(range = singlePortRange()) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = range.low + Math.floor(Math.random() * (range.high - range.low + 1));
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port between ${range.low} and ${range.high} after 100 tries`);
}

const TCP_STATES = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '06': 'TIME_WAIT',
  '08': 'CLOSE_WAIT',
  '0A': 'LISTEN',
};

/** The sockets of /proc/net/tcp text whose local port is `port`: [{ inode, state }]. */
export function socketsOnPort(procNetTcp, port) {
  const sockets = [];
  for (const line of procNetTcp.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const localPort = parseInt(fields[1].split(':')[1], 16);
    if (localPort !== port) continue;
    sockets.push({ inode: fields[9], state: TCP_STATES[fields[3]] ?? `state ${fields[3]}` });
  }
  return sockets;
}

/** The processes (pid and command line) with an open socket of one of these inodes, read from /proc/<pid>/fd. */
function processesHolding(inodes) {
  const wanted = new Set(inodes.map((inode) => `socket:[${inode}]`));
  const holders = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const holds = readdirSync(`/proc/${pid}/fd`).some((fd) =>
        wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`)),
      );
      if (!holds) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      holders.push(`pid ${pid} (${command.slice(0, 160)})`);
    } catch {
      // a process that ended meanwhile, or one of another user: not readable
    }
  }
  return holders;
}

/**
 * Who holds a TCP port, in words: the sockets on it with their state and the processes that own them (from
 * /proc/net/tcp and /proc/<pid>/fd), or `ss`'s lines where /proc is not there; null when nothing is seen.
 */
export function describePortHolder(port) {
  let sockets = [];
  try {
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6'])
      sockets.push(...socketsOnPort(readFileSync(file, 'utf8'), port));
  } catch {
    sockets = [];
  }
  if (sockets.length > 0) {
    const states = [...new Set(sockets.map((s) => s.state))].join(', ');
    const inodes = sockets.map((s) => s.inode).filter((inode) => inode !== '0');
    const holders = inodes.length ? processesHolding(inodes) : [];
    return `port ${port} is held (${states}) by ${holders.length ? holders.join(', ') : 'a process not readable here'}`;
  }
  try {
    const lines = execFileSync('ss', ['-Htanp', `sport = :${port}`], {
      encoding: 'utf8',
      timeout: 2000,
    }).trim();
    return lines ? `port ${port} is held: ${lines.replace(/\s+/g, ' ')}` : null;
  } catch {
    return null;
  }
}
