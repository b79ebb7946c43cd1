import net from 'node:net';

/** A port nothing listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port }, () => server.close(() => resolve(true)));
  });
}

/** Every default port of the single-machine stack (scripts/lib/stack.mjs), MongoDB and SMTP included. */
export const STACK_PORTS = [27017, 8080, 4001, 4002, 4003, 4004, 4005, 4013, 4015, 3000, 3001, 3002, 1025];

/**
 * The first offset (from, from + 1000, ...) at which every port of the stack is free, so browser tests,
 * benchmarks and chaos runs can each start a whole stack beside `npm start` and beside each other.
 */
export async function freeStackPortOffset(from: number, to = from + 10000): Promise<number> {
  for (let offset = from; offset <= to; offset += 1000) {
    const free = await Promise.all(STACK_PORTS.map((p) => portIsFree(p + offset)));
    if (free.every(Boolean)) return offset;
  }
  throw new Error(`no free set of ports for a stack between offsets ${from} and ${to}`);
}
