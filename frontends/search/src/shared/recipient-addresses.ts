// The recipients of Get DIP's and Send Deal's emails: several addresses typed into one field.
// Pure (no @lsp/ui), so the dialogs' models and their unit tests take it without the styles.

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
