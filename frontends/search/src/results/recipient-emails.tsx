// The recipients of Get DIP's and Send Deal's emails: several addresses typed into one field.
import { TextField } from '@lsp/ui';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The addresses typed, separated by commas, semicolons or spaces. */
export function splitEmails(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((e) => e.trim())
    .filter(Boolean);
}

/** The addresses of `list` that are not shaped like an email address. */
export function invalidEmails(list: readonly string[]): string[] {
  return list.filter((e) => !EMAIL.test(e));
}

/** The field itself, showing the error its dialog found in the addresses. */
export function RecipientEmailsField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
}) {
  return (
    <TextField
      label="Email addresses"
      hint="Separate several addresses with commas"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error ?? undefined}
    />
  );
}
