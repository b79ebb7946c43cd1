// The recipients field of Get DIP's and Send Deal's emails: several addresses typed into one field
// (read by recipient-addresses.ts).
import { TextField } from '@lsp/ui';

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
