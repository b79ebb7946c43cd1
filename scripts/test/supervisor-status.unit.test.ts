// The status table is plain text built from the status file; checked here without any process.
const SUPERVISOR_MODULE = '../lib/supervisor.mjs';

interface StatusRow {
  name: string;
  state: string;
  pid: number | null;
  restarts: number;
  startedAt: string;
  lastExit: string | null;
}

describe('npm start -- status table', () => {
  it('lists each process with its state, restarts and uptime', async () => {
    const { formatStatusTable } = (await import(SUPERVISOR_MODULE)) as {
      formatStatusTable(rows: StatusRow[], now: number): string;
    };
    const now = Date.parse('2026-01-01T10:00:00Z');
    const table = formatStatusTable(
      [
        {
          name: 'gateway',
          state: 'running',
          pid: 42,
          restarts: 0,
          startedAt: '2026-01-01T09:58:55Z',
          lastExit: null,
        },
        {
          name: 'dip',
          state: 'given-up',
          pid: null,
          restarts: 4,
          startedAt: '2026-01-01T09:00:00Z',
          lastExit: 'SIGKILL',
        },
      ],
      now,
    );
    expect(table.split('\n')).toEqual([
      'process  state     pid  restarts  uptime  last exit',
      'gateway  running   42   0         1m 5s   -',
      'dip      given-up  -    4         -       SIGKILL',
    ]);
  });
});
