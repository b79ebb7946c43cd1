import { parseOpsEmails, rolesFor } from '@lsp/contracts';
import { identityHeaders, readCallerIdentity } from '../src/identity-headers';

const secret = 'x'.repeat(40);

describe('roles', () => {
  it('grants ops only to verified accounts listed in OPS_EMAILS, whatever the case', () => {
    const ops = parseOpsEmails(' Ops@Example.com, second@example.com ,');
    expect([...ops]).toEqual(['ops@example.com', 'second@example.com']);
    expect(rolesFor({ email: 'OPS@example.com', verified: true }, ops)).toEqual(['ops']);
    expect(rolesFor({ email: 'ops@example.com', verified: false }, ops)).toEqual([]);
    expect(rolesFor({ email: 'borrower@example.com', verified: true }, ops)).toEqual([]);
    expect(rolesFor({ email: 'ops@example.com', verified: true }, parseOpsEmails(undefined))).toEqual([]);
  });

  it('travel from the gateway in x-user-roles and count only with the internal secret', () => {
    const identity = { userId: 'u1', email: 'a@b.c', name: 'A', verified: true, roles: ['ops'] };
    const headers = identityHeaders(identity, secret);
    expect(headers['x-user-roles']).toBe('ops');
    expect(readCallerIdentity(headers, secret)?.roles).toEqual(['ops']);
    expect(readCallerIdentity({ ...headers, 'x-internal-secret': 'y'.repeat(40) }, secret)).toBeNull();
    const plain = identityHeaders({ ...identity, roles: [] }, secret);
    expect(plain['x-user-roles']).toBeUndefined();
    expect(readCallerIdentity(plain, secret)?.roles).toEqual([]);
  });
});
