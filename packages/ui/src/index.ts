// @lsp/ui: the design system and the app context shared by the shell and the remotes. It is a
// module-federation singleton, so the providers the shell mounts are the ones remotes read.
import './styles.css';

export { cx } from './components/class-names';
export * from './components/icons';
export { Button, buttonClass } from './components/button';
export type { ButtonProps, ButtonSize, ButtonVariant } from './components/button';
export { Spinner, PageLoading } from './components/spinner';
export { NotFoundPage } from './components/not-found';
export type { SpinnerProps } from './components/spinner';
export { Card } from './components/card';
export type { CardProps } from './components/card';
export { Badge } from './components/badge';
export type { BadgeProps, BadgeVariant } from './components/badge';
export { Alert } from './components/alert';
export { Fact } from './components/fact';
export type { AlertProps, AlertVariant } from './components/alert';
export {
  TextField,
  TextAreaField,
  PasswordField,
  NumberField,
  Select,
  Checkbox,
  RadioCards,
  FieldError,
  ValidTick,
} from './components/fields';
export type {
  TextFieldProps,
  TextAreaFieldProps,
  PasswordFieldProps,
  NumberFieldProps,
  SelectProps,
  SelectOption,
  CheckboxProps,
  RadioCardsProps,
  RadioCardOption,
} from './components/fields';
export {
  sanitiseNumberInput,
  sanitiseNumberFieldText,
  parseUkNumber,
  parseNumberFieldValue,
  formatUkNumber,
} from './components/number-format';
export { Dialog } from './components/dialog';
export type { DialogProps } from './components/dialog';
export { Tabs } from './components/tabs';
export type { TabItem, TabsProps } from './components/tabs';
export { Tooltip } from './components/tooltip';
export type { TooltipProps } from './components/tooltip';
export {
  ToastProvider,
  refusalToast,
  useToast,
  TOAST_DURATION_MS,
  TOAST_ERROR_DURATION_MS,
  TOAST_DURATIONS_MS,
} from './components/toast';
export type { ToastOptions, ToastVariant } from './components/toast';

export { resendVerificationEmail } from './app/resend-verification';
export {
  VerifyEmailNotice,
  isVerificationRequired,
  VERIFY_EMAIL_TITLE,
  VERIFY_EMAIL_FIRST,
  EMAIL_NOT_VERIFIED,
} from './app/verify-email-notice';
export type { VerifyEmailNoticeProps } from './app/verify-email-notice';
export { apiPath, callApi, requestApi, loginUrlFor, redirectToLogin, ApiError } from './app/api';
export type {
  ApiAnswer,
  ApiFailure,
  ApiInput,
  ApiResult,
  CallOptions,
  OperationId,
  RequestOptions,
  UnauthorizedBehavior,
} from './app/api';
export { createQueryClient } from './app/query-client';
export { DASHBOARD_QUERY_KEYS, applicationSubmitted } from './app/dashboard-queries';
export { useApplicationSubmit } from './app/submit-application';
export type { ApplicationAccepted } from './app/submit-application';
export { currentJourney, endJourney, startJourney } from './app/journey';
export {
  TELEMETRY_DUPLICATE_FAILURE_WINDOW_MS,
  shouldReportTelemetryFailure,
  trackShareFunnel,
} from './app/telemetry';
export type { FunnelEvent } from './app/telemetry';
export { SessionProvider, useSession, fetchSessionUser, hasRole } from './app/session';
export type { SessionState, SessionStatus, SessionUser } from './app/session';
export { RequireSession } from './app/require-session';
export { AppProviders } from './app/app-providers';
export {
  PENDING_RESULTS_EVENT,
  clearLegacySessionKeys,
  notifySessionChanged,
  readStoredJson,
} from './app/storage-keys';
export { LendabilityScoreCard } from './components/lendability-score';
export type { LendabilityScoreCardProps } from './components/lendability-score';
