import {
  IDENTITY_MESSAGES,
  NAME_FORBIDDEN_CHARACTERS,
  SHARING_MESSAGES,
  createAccountBodySchema,
  referralBodySchema,
  registerBodySchema,
} from '../src';

/** Names become email subjects and sender lines: no control or text-direction characters in them. */
describe('person names', () => {
  const refused = [
    'Ann\u0007 Lee', // BEL
    'Ann\nBcc: x@example.net',
    'Ann\u0085Lee', // NEL (C1)
    'Ann \u202Efdp.exe', // right-to-left override
    'Ann \u2066Lee\u2069', // isolates
    'Ann\u200FLee', // right-to-left mark
    'Ann\u2028Lee', // line separator
  ];
  const accepted = ['Ann Lee', 'Zoë O’Brien-Łukasz', 'محمد علي', '李小龍', 'Jean-Luc Picard'];

  const first = (result: {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  }) => result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

  it.each(refused)('refuses %j in every name field, in that form’s words', (name) => {
    expect(NAME_FORBIDDEN_CHARACTERS.test(name)).toBe(true);
    expect(first(registerBodySchema.safeParse({ name, email: 'a@b.co', password: 'long enough' }))).toEqual([
      `name: ${IDENTITY_MESSAGES.registerNameCharacters}`,
    ]);
    expect(
      first(
        createAccountBodySchema.safeParse({
          name,
          email: 'a@b.co',
          phone: '07700900000',
          password: 'long enough',
          confirmPassword: 'long enough',
        }),
      ),
    ).toEqual([`name: ${IDENTITY_MESSAGES.createNameCharacters}`]);
    expect(first(referralBodySchema.safeParse({ referrerName: name, referralEmail: 'a@b.co' }))).toEqual([
      `referrerName: ${SHARING_MESSAGES.referrerNameControlCharacters}`,
    ]);
  });

  it.each(accepted)('accepts %j', (name) => {
    expect(registerBodySchema.safeParse({ name, email: 'a@b.co', password: 'long enough' }).success).toBe(
      true,
    );
    expect(referralBodySchema.safeParse({ referrerName: name, referralEmail: 'a@b.co' }).success).toBe(true);
  });

  it('still answers the length rule first', () => {
    expect(
      first(registerBodySchema.safeParse({ name: 'A', email: 'a@b.co', password: 'long enough' })),
    ).toEqual([`name: ${IDENTITY_MESSAGES.registerName}`]);
  });
});
