// Sending an application, as both application forms do (the DIP application wizard and 'Continue
// application'): the same outcomes, toasts and dashboard refresh, whichever endpoint takes it.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useToast } from '../components/toast';
import { redirectToLogin } from './api';
import { applicationSubmitted } from './dashboard-queries';

/** One message for every failure; the server's own text is never shown. */
const SUBMIT_FAILED = {
  title: 'Submission Failed',
  description: 'Failed to submit your application. Please try again.',
  variant: 'error',
} as const;

export interface ApplicationAccepted {
  /** The success toast's text: what was submitted and what happens next. */
  description: string;
  /** Where the person goes next (the dashboard). */
  then: () => void;
}

/**
 * `submitting` while an application is on its way; `submit(send, userId, accepted)` sends it. Signed
 * out, it goes to the login page; refused or unreachable, the failure toast; accepted, the dashboard's
 * lists are refreshed (applicationSubmitted), the success toast shows and `accepted.then` runs.
 */
export function useApplicationSubmit() {
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (
    send: () => Promise<{ ok: boolean; status: number }>,
    userId: string,
    accepted: ApplicationAccepted,
  ) => {
    setSubmitting(true);
    try {
      const answer = await send();
      if (answer.status === 401) {
        redirectToLogin();
        return;
      }
      if (!answer.ok) {
        toast(SUBMIT_FAILED);
        return;
      }
      await applicationSubmitted(queryClient, userId);
      toast({ title: 'Application Submitted', description: accepted.description, variant: 'success' });
      accepted.then();
    } catch {
      toast(SUBMIT_FAILED);
    } finally {
      setSubmitting(false);
    }
  };

  return { submitting, submit };
}
