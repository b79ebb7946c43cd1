import { z } from 'zod';
import { loadConfigOrExit, productionConfigWarnings } from '../src/config';

describe('production start-up warnings', () => {
  it('warns a production process whose PUBLIC_URL is left at a loopback address, saying it is the default', () => {
    const [warning] = productionConfigWarnings(
      { PUBLIC_URL: 'http://localhost:8080' },
      { NODE_ENV: 'production' },
    );
    expect(warning).toMatch(
      /^WARNING: PUBLIC_URL is http:\/\/localhost:8080 \(the default: PUBLIC_URL is not set\)/,
    );
    expect(warning).toContain('Every email links there');
    expect(
      productionConfigWarnings(
        { PUBLIC_URL: 'http://127.0.0.1:9000' },
        { NODE_ENV: 'production', PUBLIC_URL: 'x' },
      ),
    ).toHaveLength(1);
  });

  it('says nothing for a real address, outside production, or for a service without PUBLIC_URL', () => {
    expect(
      productionConfigWarnings({ PUBLIC_URL: 'https://loans.example.com' }, { NODE_ENV: 'production' }),
    ).toEqual([]);
    expect(
      productionConfigWarnings({ PUBLIC_URL: 'http://localhost:8080' }, { NODE_ENV: 'development' }),
    ).toEqual([]);
    expect(productionConfigWarnings({ PORT: 1 }, { NODE_ENV: 'production' })).toEqual([]);
  });

  it('is written to stderr when a production process loads its configuration', () => {
    const schema = z.object({ PUBLIC_URL: z.string().url().default('http://localhost:8080') });
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(loadConfigOrExit(schema, { NODE_ENV: 'production' })).toEqual({
        PUBLIC_URL: 'http://localhost:8080',
      });
    } finally {
      spy.mockRestore();
    }
    expect(written.join('')).toContain('WARNING: PUBLIC_URL is http://localhost:8080');
  });
});
