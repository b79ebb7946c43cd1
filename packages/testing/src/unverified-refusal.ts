import { EMAIL_NOT_VERIFIED } from '@lsp/contracts';

type Answer = { status: number; json(): unknown };

/**
 * A check that a call is refused as one from an address not yet verified is (the 403 that offers to
 * resend the verification email) and that `state`, everything the call could change, reads the same
 * after it.
 */
export function unverifiedRefusal(state: () => Promise<string>) {
  return async (call: () => Promise<Answer>): Promise<void> => {
    const before = await state();
    const res = await call();
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ success: false, error: EMAIL_NOT_VERIFIED, verificationRequired: true });
    expect(await state()).toBe(before);
  };
}
