// 'DIP load': the messages of the shared and owner views by status.
export function dipErrorMessage(status: number, context: 'owner' | 'shared'): string {
  if (status === 403)
    return "You don't have access to this DIP. Please contact the person who shared it with you.";
  if (status === 404) return 'DIP not found or may have been removed';
  if (status === 410) return 'This DIP has expired and is no longer available';
  if (status === 401) return 'Please log in to view this DIP.';
  return context === 'shared'
    ? `Unable to load shared DIP. Please try again later. (Error ${status})`
    : `Unable to load DIP. Please try again later. (Error ${status})`;
}
