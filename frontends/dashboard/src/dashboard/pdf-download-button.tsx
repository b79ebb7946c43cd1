// Download PDF with a visible progress state and a clear retry. A DIP's first PDF
// is rendered on demand and can take seconds (up to the service's timeout, asked twice); meanwhile the
// button shows 'Preparing PDF…' with a spinner and a status line says why. If it still fails, a line
// under the button says so with a Try again button; the spec's toasts are the caller's, as before.
import { Button, type ButtonProps } from '@lsp/ui';
import { useState } from 'react';
import type { PdfOutcome } from './pdf';
import './pdf-download.css';

type State = 'idle' | 'working' | 'failed';

export interface PdfDownloadButtonProps extends Omit<ButtonProps, 'onClick' | 'loading' | 'loadingText'> {
  /** Runs the download and reports how it went (it shows its own toasts). */
  run: () => Promise<PdfOutcome | void>;
}

export const PDF_PREPARING = 'Preparing PDF…';
export const PDF_PREPARING_NOTE = 'Preparing your PDF. The first download of a DIP can take a few seconds.';
export const PDF_NOT_READY = "The PDF isn't ready yet or could not be downloaded.";

export function PdfDownloadButton({ run, children = 'Download PDF', ...button }: PdfDownloadButtonProps) {
  const [state, setState] = useState<State>('idle');
  const start = async () => {
    if (state === 'working') return;
    setState('working');
    const outcome = await run();
    setState(outcome === 'busy' || outcome === 'failed' ? 'failed' : 'idle');
  };
  return (
    <span className="pdf-download">
      <Button
        {...button}
        loading={state === 'working'}
        loadingText={PDF_PREPARING}
        onClick={() => void start()}
      >
        {children}
      </Button>
      <span role="status" className={state === 'working' ? 'pdf-download__note' : 'ui-visually-hidden'}>
        {state === 'working' ? PDF_PREPARING_NOTE : ''}
      </span>
      {state === 'failed' && (
        <span className="pdf-download__failed">
          {PDF_NOT_READY}{' '}
          <Button size="sm" variant="link" onClick={() => void start()}>
            Try again
          </Button>
        </span>
      )}
    </span>
  );
}
