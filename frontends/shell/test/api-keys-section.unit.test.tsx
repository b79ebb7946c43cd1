import { API_KEY_SCOPES, type ApiKeySummary } from '@lsp/contracts';
import { ApiError, ToastProvider, VERIFY_EMAIL_TITLE, createQueryClient } from '@lsp/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { API_KEYS_QUERY_KEY, ApiKeysSection } from '../src/account/api-keys-section';
import { LoadFailure } from '../src/account/load-failure';

// The design system's stylesheet is the bundler's business, not the test's.
jest.mock('../../../packages/ui/src/styles.css', () => ({}));

/** The section as the page renders it, with the list already answered by the server. */
function render(list: { apiKeys: ApiKeySummary[] }) {
  const client = createQueryClient();
  client.setQueryData(API_KEYS_QUERY_KEY, list);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <ApiKeysSection />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

const key = (over: Partial<ApiKeySummary> = {}): ApiKeySummary => ({
  id: 'a'.repeat(24),
  name: 'CRM sync',
  prefix: 'lsp_aaaaaaaaaaaa',
  scopes: ['searches:read', 'dips:write'],
  createdAt: '2026-07-01T09:30:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  ...over,
});

describe('the account page’s API keys', () => {
  it('lists each key by name, prefix, scopes, created and last used, with its own Revoke', () => {
    const html = render({
      apiKeys: [key(), key({ id: 'b'.repeat(24), name: 'Case manager', lastUsedAt: '2026-07-02T12:00:00Z' })],
    });
    expect(html).toContain('<strong>CRM sync</strong>');
    expect(html).toContain('lsp_aaaaaaaaaaaa…');
    expect(html).toContain('Searches: read, DIPs and applications: write');
    expect(html).toContain('1 July 2026 at 10:30');
    expect(html).toMatch(/Last used<\/dt><dd>Never</);
    expect(html).toMatch(/Last used<\/dt><dd>2 July 2026 at 13:00</);
    expect(html).toContain('aria-label="Revoke CRM sync"');
    expect(html).toContain('aria-label="Revoke Case manager"');
    // The list never holds a key itself, and nothing is revealed before a key is made.
    expect(html).not.toContain('will not be shown again');
  });

  it('offers the create form: a name and a checkbox per scope of the contracts', () => {
    const html = render({ apiKeys: [] });
    expect(html).toContain('No API keys yet.');
    expect(html).toContain('Key name');
    const boxes = html.match(/<input[^>]*type="checkbox"[^>]*>/g) ?? [];
    expect(boxes.map((box) => /value="([^"]+)"/.exec(box)?.[1])).toEqual([...API_KEY_SCOPES]);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>.*Create API key.*<\/button>/s);
  });
});

describe('a list the account page could not load', () => {
  const render = (error: unknown) =>
    renderToStaticMarkup(<LoadFailure what="your API keys" error={error} onRetry={() => undefined} />);

  it('shows the server’s words when it refuses an address not verified yet', () => {
    const said = 'Please verify your email address to continue';
    const html = render(new ApiError(said, 403, { success: false, error: said, verificationRequired: true }));
    expect(html).toContain(`${VERIFY_EMAIL_TITLE}</`);
    expect(html).toContain(said);
    expect(html).not.toContain('Try Again');
  });

  it('offers Try Again when the list could not be loaded', () => {
    const html = render(new ApiError('API request failed: 502', 502, null));
    expect(html).toContain('Could not load your API keys.');
    expect(html).toContain('Try Again');
    expect(html).not.toContain('502');
  });
});
