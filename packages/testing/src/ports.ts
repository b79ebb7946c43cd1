import { PLATFORM_PROCESSES } from '@lsp/contracts';
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

/** The development mail catcher's SMTP port (notifications' MAIL_CATCHER_SMTP_PORT on one machine). */
const MAIL_CATCHER_SMTP_PORT = 1025;

/** Every default port of the single-machine stack: the process registry's, and the mail catcher's. */
export const STACK_PORTS = [...PLATFORM_PROCESSES.map((proc) => proc.port), MAIL_CATCHER_SMTP_PORT];

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
