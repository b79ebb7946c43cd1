// The ports test stacks, benchmarks and chaos runs choose lie outside the kernel's ephemeral range (which any
// outgoing connection may take between the check and the listen), and a port that cannot be bound is
// described with who holds it.
import net from 'node:net';
import {
  STACK_PORTS,
  freePort,
  isChoosablePort,
  parseEphemeralRange,
  singlePortRange,
  stackPort,
  stackPortOffsets,
  stackPortsAt,
} from '@lsp/testing';

const PORTS_MODULE = '../lib/ports.mjs';

interface PortsModule {
  parseEphemeralRange(text: string): { low: number; high: number } | null;
  stackPort(defaultPort: number, offset: number): number;
  singlePortRange(range: { low: number; high: number }): { low: number; high: number };
  socketsOnPort(procNetTcp: string, port: number): Array<{ inode: string; state: string }>;
  describePortHolder(port: number): string | null;
}

const load = () => import(PORTS_MODULE) as Promise<PortsModule>;

const LINUX_DEFAULT = { low: 32768, high: 60999 };

describe('the ports test stacks choose', () => {
  it('reads the ephemeral range from the text of ip_local_port_range and refuses anything else', () => {
    expect(parseEphemeralRange('32768\t60999\n')).toEqual(LINUX_DEFAULT);
    expect(parseEphemeralRange('49152 65535')).toEqual({ low: 49152, high: 65535 });
    expect(parseEphemeralRange('')).toBeNull();
    expect(parseEphemeralRange('60999 32768')).toBeNull();
    expect(parseEphemeralRange('1 70000')).toBeNull();
  });

  it('puts every port of every offered stack outside the ephemeral range and off npm start’s ports', () => {
    const offsets = stackPortOffsets(1000, 40000, LINUX_DEFAULT);
    expect(offsets.length).toBeGreaterThanOrEqual(10);
    for (const offset of offsets) {
      for (const port of stackPortsAt(offset)) {
        expect(isChoosablePort(port, LINUX_DEFAULT)).toBe(true);
        expect(STACK_PORTS).not.toContain(port);
      }
    }
  });

  it('offers none of the offsets whose ports fall in the range (the chaos run’s old 30000 gave 34001-38080)', () => {
    expect(stackPortOffsets(30000, 34000, LINUX_DEFAULT)).toEqual([]);
    // 20000 would put the stack's MongoDB on npm start's 27017.
    expect(stackPortOffsets(20000, 34000, LINUX_DEFAULT)).toEqual([21000, 22000, 23000, 24000]);
    // With macOS's range the same offsets are fine: the range is the machine's, not a constant.
    expect(stackPortOffsets(30000, 34000, { low: 49152, high: 65535 })).toEqual([
      30000, 31000, 32000, 33000, 34000,
    ]);
  });

  it('keeps MongoDB within ten thousand ports of a test stack’s offset, and npm start on the defaults', () => {
    expect(stackPort(27017, 0)).toBe(27017);
    expect(stackPort(27017, 20000)).toBe(27017);
    expect(stackPort(27017, 10000)).toBe(17017);
    expect(stackPort(4004, 20000)).toBe(24004);
    expect(stackPort(1025, 20000)).toBe(21025);
  });

  it('chooses single ports above the ephemeral range when there is room, else below it', async () => {
    expect(singlePortRange(LINUX_DEFAULT)).toEqual({ low: 61000, high: 65535 });
    expect(singlePortRange({ low: 49152, high: 65535 })).toEqual({ low: 45152, high: 49151 });
    const port = await freePort(singlePortRange(LINUX_DEFAULT));
    expect(port).toBeGreaterThanOrEqual(61000);
  });

  it('has the same rules in the plain-Node module the stack starts with', async () => {
    const ports = await load();
    expect(ports.parseEphemeralRange('32768\t60999')).toEqual(LINUX_DEFAULT);
    for (const offset of [0, 10000, 20000, 24000]) {
      for (const port of STACK_PORTS) expect(ports.stackPort(port, offset)).toBe(stackPort(port, offset));
    }
    expect(ports.singlePortRange(LINUX_DEFAULT)).toEqual(singlePortRange(LINUX_DEFAULT));
  });
});

describe('who holds a port', () => {
  it('finds the sockets on a port in /proc/net/tcp text, with their state', async () => {
    const { socketsOnPort } = await load();
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:84D4 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1',
      '   1: 0100007F:A3F2 0100007F:84D4 01 00000000:00000000 00:00000000 00000000     0        0 4343 1',
    ].join('\n');
    expect(socketsOnPort(table, 0x84d4)).toEqual([{ inode: '4242', state: 'LISTEN' }]);
    expect(socketsOnPort(table, 0xa3f2)).toEqual([{ inode: '4343', state: 'ESTABLISHED' }]);
    expect(socketsOnPort(table, 1234)).toEqual([]);
  });

  it('names the process listening on a port, and nothing for a free port', async () => {
    const { describePortHolder } = await load();
    const server = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      const description = describePortHolder(port);
      expect(description).toContain(`port ${port}`);
      expect(description).toContain('LISTEN');
      expect(description).toContain(`pid ${process.pid}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(describePortHolder(port)).toBeNull();
  });
});
