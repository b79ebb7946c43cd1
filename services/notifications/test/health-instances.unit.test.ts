import { PLATFORM_PROCESSES } from '@lsp/contracts';
import type { NotificationsConfig } from '../src/config';
import { instancesOf, opsTargets } from '../src/ops/health';

describe('the health grid finds every instance of a process', () => {
  it('scrapes each address a name resolves to (a headless Service: one per pod)', async () => {
    const resolve = async (host: string) => {
      expect(host).toBe('search-pods');
      return ['10.0.2.7', '10.0.1.5', '10.0.2.7'];
    };
    expect(await instancesOf({ name: 'search', url: 'http://search-pods:4002' }, resolve)).toEqual([
      { name: 'search 10.0.1.5', url: 'http://10.0.1.5:4002' },
      { name: 'search 10.0.2.7', url: 'http://10.0.2.7:4002' },
    ]);
  });

  it('writes an IPv6 pod address as a URL host', async () => {
    const resolve = async () => ['fd00::2', 'fd00::1'];
    expect(await instancesOf({ name: 'dip', url: 'http://dip-pods:4003' }, resolve)).toEqual([
      { name: 'dip fd00::1', url: 'http://[fd00::1]:4003' },
      { name: 'dip fd00::2', url: 'http://[fd00::2]:4003' },
    ]);
  });

  it('probes one address, loopback, a literal address or a name that does not resolve as it is', async () => {
    const never = async () => {
      throw new Error('not asked');
    };
    const single = { name: 'sharing', url: 'http://sharing:4004' };
    expect(await instancesOf(single, async () => ['10.0.0.9'])).toEqual([single]);
    for (const url of ['http://127.0.0.1:4002', 'http://localhost:4002', 'http://10.1.1.1:4002'])
      expect(await instancesOf({ name: 'search', url }, never)).toEqual([{ name: 'search', url }]);
    const unknown = { name: 'identity', url: 'http://identity-pods:4001' };
    expect(
      await instancesOf(unknown, async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      }),
    ).toEqual([unknown]);
  });
});

describe('the health grid watches every service and worker of the process registry', () => {
  it('finds each at the address the console is given, a worker beside its service (a test stack’s port offset too)', () => {
    const config = {
      PUBLIC_URL: 'http://localhost:28080',
      IDENTITY_URL: 'http://127.0.0.1:24001',
      SEARCH_URL: 'http://127.0.0.1:24002',
      DIP_URL: 'http://127.0.0.1:24003',
      SHARING_URL: 'http://127.0.0.1:24004',
      NOTIFICATIONS_URL: 'http://127.0.0.1:24005/',
    } as NotificationsConfig;
    const targets = opsTargets(config);
    expect(targets[0]).toEqual({ name: 'gateway', url: 'http://localhost:28080' });
    expect(Object.fromEntries(targets.map((t) => [t.name, t.url]))).toEqual({
      gateway: 'http://localhost:28080',
      identity: 'http://127.0.0.1:24001',
      search: 'http://127.0.0.1:24002',
      'repricing-worker': 'http://127.0.0.1:24012',
      dip: 'http://127.0.0.1:24003',
      'pdf-worker': 'http://127.0.0.1:24013',
      sharing: 'http://127.0.0.1:24004',
      notifications: 'http://127.0.0.1:24005',
      'email-worker': 'http://127.0.0.1:24015',
    });
    const kinds = new Set(['service', 'worker']);
    expect(targets.map((t) => t.name).sort()).toEqual(
      PLATFORM_PROCESSES.filter((p) => kinds.has(p.kind))
        .map((p) => p.name)
        .sort(),
    );
  });

  it('leaves the gateway out when the site is not on this machine, and takes OPS_TARGETS as given', () => {
    const config = {
      PUBLIC_URL: 'https://loans.example.co.uk',
      IDENTITY_URL: 'http://identity:4001',
      SEARCH_URL: 'http://search:4002',
      DIP_URL: 'http://dip:4003',
      SHARING_URL: 'http://sharing:4004',
      NOTIFICATIONS_URL: 'http://notifications:4005',
    } as NotificationsConfig;
    expect(opsTargets(config).map((t) => t.name)).not.toContain('gateway');
    const given = [{ name: 'search', url: 'http://search-pods:4002' }];
    expect(opsTargets({ ...config, OPS_TARGETS: given })).toBe(given);
  });
});
