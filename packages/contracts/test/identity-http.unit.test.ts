import {
  createAccountFormSchema,
  leadInfoSchema,
  loginBodySchema,
  registerBodySchema,
  registerFormSchema,
  resendVerificationBodySchema,
} from '../src/identity';

// The first message per field, which is the one a form shows.
const messages = (result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => {
  const first: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) first[issue.path.join('.')] ??= issue.message;
  return first;
};

describe('identity form contracts', () => {
  it('requires both email and password to log in', () => {
    expect(messages(loginBodySchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('gives the register form its own messages', () => {
    const result = registerFormSchema.safeParse({
      name: 'A',
      email: 'a@b',
      password: 'short',
      confirmPassword: 'other',
    });
    expect(messages(result)).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'Please enter a valid email address',
      password: 'Password must be at least 8 characters',
      confirmPassword: "Passwords don't match",
    });
    const mismatch = registerFormSchema.safeParse({
      name: 'Al',
      email: 'al@example.com',
      password: 'longenough',
      confirmPassword: 'different',
    });
    expect(messages(mismatch)).toEqual({ confirmPassword: "Passwords don't match" });
  });

  it('gives the create-account form its required-field messages', () => {
    const result = createAccountFormSchema.safeParse({
      name: ' ',
      email: '',
      phone: '',
      password: '',
      confirmPassword: '',
    });
    expect(messages(result)).toMatchObject({
      name: 'Full name is required',
      email: 'Email address is required',
      phone: 'Phone number is required',
      password: 'Password is required',
    });
  });

  it('rejects a short create-account password and a mismatched confirmation', () => {
    const jo = { name: 'Jo Bloggs', email: 'jo@example.com', phone: '07700 900123' };
    const short = createAccountFormSchema.safeParse({ ...jo, password: 'abc', confirmPassword: 'abc' });
    expect(messages(short)).toEqual({ password: 'Password must be at least 8 characters long' });
    const mismatch = createAccountFormSchema.safeParse({
      ...jo,
      password: 'abcdefgh',
      confirmPassword: 'abcdefgX',
    });
    expect(messages(mismatch)).toEqual({ confirmPassword: 'Passwords do not match' });
  });

  it('asks for an email before resending verification', () => {
    expect(messages(resendVerificationBodySchema.safeParse({ email: '  ' }))).toEqual({
      email: 'Please enter your email address to resend verification.',
    });
  });
});

describe('optional fields sent as null', () => {
  it('treats null as absent, as browsers send it for a missing referral (URLSearchParams.get)', () => {
    const body = { name: 'Alex Investor', email: 'alex@example.co.uk', password: 'a-long-password' };
    const parsed = registerBodySchema.parse({ ...body, refDealId: null, fromSharedLink: null });
    expect(parsed).toEqual(body);
    expect(registerBodySchema.safeParse({ ...body, refDealId: '' }).success).toBe(false);
    expect(
      leadInfoSchema.parse({ propertiesOwned: '0', fullName: null, phone: null, consent: null }),
    ).toMatchObject({
      propertiesOwned: '0',
    });
  });
});
