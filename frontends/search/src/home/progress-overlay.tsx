import { LENDER_COUNT_CLAIM, OVERLAY_STAGE_MESSAGES, OVERLAY_STAGES } from '@lsp/contracts';
import { useEffect, useRef, useState } from 'react';
import { overlayPercent, overlaySchedule } from './overlay-schedule';

/**
 * The full-screen progress overlay: three stages, one every 2.2 s (33%, 67%, 100%), and the completion
 * callback 0.8 s after the last stage. It is a modal status: focus moves to it so keyboard and screen
 * reader users know the page is busy, and the page behind is inert while it shows.
 */
export function ProgressOverlay({ onComplete }: { onComplete: () => void }) {
  const [stage, setStage] = useState(1);
  const completeRef = useRef(onComplete);
  completeRef.current = onComplete;
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const timers = overlaySchedule().map((step) =>
      setTimeout(() => ('complete' in step ? completeRef.current() : setStage(step.stage)), step.at),
    );
    return () => timers.forEach(clearTimeout);
  }, []);

  useEffect(() => {
    boxRef.current?.focus();
  }, []);

  const percent = overlayPercent(stage);
  return (
    <div
      className="sr-overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="sr-overlay-title"
      aria-describedby="sr-overlay-stage"
    >
      <div className="sr-overlay__box" ref={boxRef} tabIndex={-1}>
        <div className="sr-overlay__pulse" aria-hidden="true" />
        <h2 id="sr-overlay-title" className="sr-overlay__title">
          Your loan assistant is working for you
        </h2>
        <p className="sr-overlay__subtitle">
          We are searching {LENDER_COUNT_CLAIM} specialist UK lenders for your best terms.
        </p>
        <div
          className="sr-progress"
          role="progressbar"
          aria-label="Search progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="sr-progress__bar" style={{ width: `${percent}%` }} />
        </div>
        <div className="sr-overlay__meta">
          <span>{percent}%</span>
          <span>
            Stage {stage} of {OVERLAY_STAGES}
          </span>
        </div>
        <ol className="sr-overlay__stages">
          {OVERLAY_STAGE_MESSAGES.map((message, index) => {
            const state = index + 1 < stage ? 'done' : index + 1 === stage ? 'current' : 'waiting';
            return (
              <li
                key={message}
                className={`sr-overlay__stage sr-overlay__stage--${state}`}
                aria-current={state === 'current' ? 'step' : undefined}
              >
                {message.charAt(0).toUpperCase() + message.slice(1)}
              </li>
            );
          })}
        </ol>
        <p id="sr-overlay-stage" className="ui-visually-hidden" aria-live="polite">
          Stage {stage} of {OVERLAY_STAGES}: {OVERLAY_STAGE_MESSAGES[stage - 1]}
        </p>
      </div>
    </div>
  );
}
