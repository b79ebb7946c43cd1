import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_MESSAGES } from '@lsp/contracts';

/**
 * Where a webhook may be sent: https, to a host every address of which is public. Loopback, private,
 * carrier-grade NAT, link-local, multicast, documentation, reserved and unique-local IPv6 ranges are
 * refused (an endpoint must not reach the platform's own network: SSRF). The check runs when the
 * endpoint is added and again at every delivery, which then connects to the address it checked, so
 * a name that later resolves elsewhere (DNS rebinding) reaches nothing it should not.
 * `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE_TARGETS, never in production) admits http and any address.
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (`::ffff:127.0.0.1`), else null. */
function embeddedIpv4(address: string): string | null {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether a webhook may reach the address (an IP literal). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIpv4(address);
  if (v4) return !blocked.check(v4, 'ipv4');
  return !blocked.check(address, 'ipv6');
}

export class WebhookTargetError extends Error {}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: one the check found public (or any, with `allowPrivate`). */
  address: string;
  family: 4 | 6;
}

export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

const resolveAll: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** Checks a webhook URL and resolves its host; throws WebhookTargetError with the message to show. */
export async function checkTarget(
  text: string,
  allowPrivate: boolean,
  resolve: Resolve = resolveAll,
): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookTargetError(WEBHOOK_MESSAGES.urlInvalid);
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new WebhookTargetError(
      url.protocol === 'http:' ? WEBHOOK_MESSAGES.notHttps : WEBHOOK_MESSAGES.urlInvalid,
    );
  }
  if (url.username || url.password) throw new WebhookTargetError(WEBHOOK_MESSAGES.urlCredentials);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new WebhookTargetError(WEBHOOK_MESSAGES.unresolvable);
    }
  }
  if (addresses.length === 0) throw new WebhookTargetError(WEBHOOK_MESSAGES.unresolvable);
  // Every address must be public: a name with one private address among public ones is refused.
  if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) {
    throw new WebhookTargetError(WEBHOOK_MESSAGES.privateTarget);
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
