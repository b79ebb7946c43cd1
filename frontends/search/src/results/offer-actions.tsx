import { Button, useToast } from '@lsp/ui';

/**
 * Get DIP and Send Deal belong to the DIP and sharing areas, which are not open yet. The buttons stay
 * visible (people look for them) and say so plainly when pressed, instead of doing nothing.
 */
export function GetDipButton({ lender, size = 'sm' }: { lender: string; size?: 'sm' | 'md' }) {
  const { toast } = useToast();
  return (
    <Button
      size={size}
      variant="primary"
      aria-label={`Get DIP for ${lender}`}
      onClick={() =>
        toast({
          title: 'Decision in Principle not available yet',
          description:
            'Online DIPs are not open yet. Use Details and Continue Application to take this offer forward.',
          variant: 'info',
        })
      }
    >
      Get DIP
    </Button>
  );
}

export function SendDealButton({ lender, size = 'sm' }: { lender: string; size?: 'sm' | 'md' }) {
  const { toast } = useToast();
  return (
    <Button
      size={size}
      variant="secondary"
      aria-label={`Send deal from ${lender}`}
      onClick={() =>
        toast({
          title: 'Send Deal not available yet',
          description:
            'Sharing deals by email is not open yet. You can compare offers or continue an application now.',
          variant: 'info',
        })
      }
    >
      Send Deal
    </Button>
  );
}
