import type { ToastOptions } from '../components/toast';
import { callApi } from './api';

/**
 * Asks for a new verification email and says, as a toast, what happened (the spec's words). The
 * shell's verify page and the search remote's verify gate both offer this form.
 */
export async function resendVerificationEmail(values: { email: string }): Promise<ToastOptions> {
  try {
    const answer = await callApi('resendVerification', { body: values });
    if (answer.ok)
      return {
        title: 'Email Sent',
        description: answer.data.message ?? 'Verification email sent. Please check your inbox.',
        variant: 'success',
      };
    return {
      title: 'Failed to Send',
      description: answer.data?.error ?? 'Failed to send verification email.',
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
