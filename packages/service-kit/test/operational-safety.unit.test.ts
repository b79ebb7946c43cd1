import {
  ConfigError,
  ServiceMetrics,
  baseConfigSchema,
  createServiceApp,
  envFlag,
  loadConfig,
  loggableUrl,
} from '../src';
import { loggerCapturingLines } from './captured-logs';

describe('what reaches the logs', () => {
  it('logs request URLs without query values or shared-deal tokens', async () => {
    // Quick successes are logged at debug (see logRequest); the redaction must hold at every level.
    const { logger, lines } = loggerCapturingLines('test', 'debug');
    const app = createServiceApp({
      name: 'test',
      logger,
      metrics: new ServiceMetrics('test'),
    });
    app.get('/api/verify-email', async () => ({ ok: true }));
    app.get('/api/shared-deal/:token', async () => ({ ok: true }));
    await app.inject({ url: '/api/verify-email?token=SECRET-TOKEN-123&email=borrower%40example.com' });
    await app.inject({ url: '/api/online-dip/shared/slug-1?e=borrower%40example.com&sig=SIGNATURE-456' });
    await app.inject({ url: '/api/shared-deal/DEAL-TOKEN-789' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/verify-email?token=[redacted]&email=[redacted]');
    expect(log).toContain('/api/online-dip/shared/slug-1?e=[redacted]&sig=[redacted]');
    expect(log).toContain('/api/shared-deal/[redacted]');
    for (const secret of ['SECRET-TOKEN-123', 'borrower', 'SIGNATURE-456', 'DEAL-TOKEN-789']) {
      expect(log).not.toContain(secret);
    }
  });

  it('keeps paths, masks capability segments and bounds the length', () => {
    expect(loggableUrl('/api/search?loanType=bridging')).toBe('/api/search?loanType=[redacted]');
    expect(loggableUrl('/shared-deal/abc/viewed')).toBe('/shared-deal/[redacted]/viewed');
    expect(loggableUrl('/dashboard')).toBe('/dashboard');
    expect(loggableUrl(`/x/${'a'.repeat(2000)}`).length).toBeLessThanOrEqual(513);
  });
});

describe('configuration refused in production', () => {
  const schema = baseConfigSchema.extend({ MAIL_CATCHER_ENABLED: envFlag });
  const env = (extra: Record<string, string>) => ({
    SERVICE_NAME: 'test',
    PORT: '4000',
    INTERNAL_SECRET: 'a-real-secret-from-the-vault-0123',
    ...extra,
  });

  it('refuses the repository’s development-only secrets when NODE_ENV=production', () => {
    const withDevSecret = env({ NODE_ENV: 'production', INTERNAL_SECRET: 'dev-only-internal-secret-xyz' });
    expect(() => loadConfig(schema, withDevSecret)).toThrow(ConfigError);
    expect(() => loadConfig(schema, withDevSecret)).toThrow(/INTERNAL_SECRET holds a development-only value/);
    expect(loadConfig(schema, env({ INTERNAL_SECRET: 'dev-only-internal-secret-xyz' })).INTERNAL_SECRET).toBe(
      'dev-only-internal-secret-xyz',
    );
  });

  it('refuses to run the mail catcher in production', () => {
    expect(() => loadConfig(schema, env({ NODE_ENV: 'production', MAIL_CATCHER_ENABLED: 'true' }))).toThrow(
      /MAIL_CATCHER_ENABLED must be off in production/,
    );
    expect(loadConfig(schema, env({ NODE_ENV: 'production' })).MAIL_CATCHER_ENABLED).toBe(false);
  });

  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadConfig(schema, env({})).HOST).toBe('127.0.0.1');
    expect(loadConfig(schema, env({ HOST: '0.0.0.0' })).HOST).toBe('0.0.0.0');
  });
});
