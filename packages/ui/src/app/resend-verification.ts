import type { ToastOptions } from '../components/toast';
import { apiSend } from './api';

/**
 * Asks for a new verification email and says, as a toast, what happened (the spec's words). The
 * shell's verify page and the search remote's verify gate both offer this form.
 */
export async function resendVerificationEmail(values: { email: string }): Promise<ToastOptions> {
  try {
    const { ok, data } = await apiSend<{ success?: boolean; message?: string; error?: string }>(
      'POST',
      '/api/auth/resend-verification',
      values,
    );
    if (ok && data?.success)
      return {
        title: 'Email Sent',
        description: data.message ?? 'Verification email sent. Please check your inbox.',
        variant: 'success',
      };
    return {
      title: 'Failed to Send',
      description: data?.error ?? 'Failed to send verification email.',
      variant: 'error',
    };
  } catch {
    return {
      title: 'Error',
      description: 'Failed to resend verification email. Please try again.',
      variant: 'error',
    };
  }
}
