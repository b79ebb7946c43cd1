// Toasts: one at a time (a new one replaces the current), gone after 3 s (errors and warnings 4 s:
// 3000 or 4000 ms), closable, announced
// politely (errors assertively). useToast() works in the shell and in both remotes because the
// provider lives in the shell and @lsp/ui is a shared singleton.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { cx } from './class-names';
import { AlertIcon, CheckIcon, CloseIcon, InfoIcon } from './icons';

export type ToastVariant = 'info' | 'success' | 'error' | 'warning';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** How long it stays: 3000 ms by default, 4000 ms for errors and warnings. */
  duration?: (typeof TOAST_DURATIONS_MS)[number];
}

interface ActiveToast extends ToastOptions {
  id: number;
}

/** The error toast for a call the API refused: the service's own message when it sent one, else `fallback`. */
export function refusalToast(
  title: string,
  failure: { error?: string } | null | undefined,
  fallback: string,
): ToastOptions {
  return { title, description: failure?.error ?? fallback, variant: 'error' };
}

export const TOAST_DURATIONS_MS = [3000, 4000] as const;
/** The default: 3000 ms; errors and warnings stay 4000 ms, long enough to read a reason. */
export const TOAST_DURATION_MS = 3000;
export const TOAST_ERROR_DURATION_MS = 4000;

export function toastDurationOf(toast: ToastOptions): number {
  if (toast.duration) return toast.duration;
  return toast.variant === 'error' || toast.variant === 'warning'
    ? TOAST_ERROR_DURATION_MS
    : TOAST_DURATION_MS;
}

interface ToastApi {
  toast: (options: ToastOptions) => void;
  dismiss: () => void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<ActiveToast | null>(null);
  const nextId = useRef(1);

  const toast = useCallback((options: ToastOptions) => setCurrent({ ...options, id: nextId.current++ }), []);
  const dismiss = useCallback(() => setCurrent(null), []);

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), toastDurationOf(current));
    return () => clearTimeout(timer);
  }, [current]);

  const api = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);
  const variant = current?.variant ?? 'info';
  const Icon = variant === 'success' ? CheckIcon : variant === 'info' ? InfoIcon : AlertIcon;

  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* The live regions stay mounted so screen readers notice what appears in them. */}
      <div className="ui-toast-region">
        <div role="status" aria-live="polite" aria-atomic="true">
          {current && variant !== 'error' && (
            <ToastView key={current.id} toast={current} Icon={Icon} onClose={dismiss} />
          )}
        </div>
        <div role="alert" aria-live="assertive" aria-atomic="true">
          {current && variant === 'error' && (
            <ToastView key={current.id} toast={current} Icon={Icon} onClose={dismiss} />
          )}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

function ToastView({
  toast,
  Icon,
  onClose,
}: {
  toast: ActiveToast;
  Icon: typeof CheckIcon;
  onClose: () => void;
}) {
  const variant = toast.variant ?? 'info';
  return (
    <div className={cx('ui-toast', `ui-toast--${variant}`)} data-testid="toast">
      <Icon style={{ flexShrink: 0, marginTop: 2 }} />
      <div className="ui-toast__text">
        <p className="ui-toast__title">{toast.title}</p>
        {toast.description && <p className="ui-toast__description">{toast.description}</p>}
      </div>
      <button
        type="button"
        className="ui-icon-button"
        style={{ width: 28, height: 28 }}
        onClick={onClose}
        aria-label="Dismiss notification"
      >
        <CloseIcon width={16} height={16} />
      </button>
    </div>
  );
}

/** `const { toast } = useToast(); toast({ title: 'Login successful', variant: 'success' })`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() needs a <ToastProvider> above it (the shell provides one).');
  return api;
}
