// A secret shown this once (an API key, a webhook's signing secret): the value, Copy, and the warning
// that it will not be shown again. Done (or removing what it opens) hides it for good.
import { Alert, Button, useToast } from '@lsp/ui';
import type { ReactNode } from 'react';
import { copyText } from './clipboard';
import type { RevealedSecret } from './developer-access-model';

export interface RevealedSecretPanelProps {
  revealed: RevealedSecret;
  /** 'API key', 'signing secret': as it reads within a sentence. */
  what: string;
  copied: boolean;
  onCopied: () => void;
  onDone: () => void;
  /** What the secret is for, under the warning. */
  children?: ReactNode;
}

export function RevealedSecretPanel({
  revealed,
  what,
  copied,
  onCopied,
  onDone,
  children,
}: RevealedSecretPanelProps) {
  const { toast } = useToast();
  const What = what.charAt(0).toUpperCase() + what.slice(1);
  const copy = async () => {
    if (await copyText(revealed.secret)) {
      onCopied();
      toast({ title: `${What} copied`, description: 'It is on your clipboard', variant: 'success' });
    } else
      toast({
        title: 'Copy failed',
        description: `Could not copy the ${what} to the clipboard: select it and copy it yourself`,
        variant: 'error',
      });
  };
  const valueId = `revealed-${revealed.id}`;
  return (
    <div className="shell-secret" role="group" aria-label={`Your new ${what}`}>
      <Alert variant="warning" title={`Copy your ${what} now`} live>
        It will not be shown again: only a fingerprint of it is kept. {children}
      </Alert>
      <label className="ui-label" htmlFor={valueId}>
        {What} for <strong>{revealed.label}</strong>
      </label>
      <div className="shell-secret__row">
        <input
          id={valueId}
          className="ui-input shell-secret__value"
          readOnly
          value={revealed.secret}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <Button variant="ghost" size="sm" onClick={onDone}>
        Done: hide it
      </Button>
    </div>
  );
}
