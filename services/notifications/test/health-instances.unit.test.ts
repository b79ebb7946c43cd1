import { instancesOf } from '../src/ops/health';

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
