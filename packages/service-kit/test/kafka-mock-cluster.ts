import { spawn, spawnSync } from 'node:child_process';

/**
 * A Kafka cluster for tests without a Kafka installation: the mock cluster built into librdkafka,
 * started through Debian's kcat (`apt-get install -y kcat`; `npm test` installs it). It speaks the
 * Kafka protocol on a loopback port, for as long as the kcat process lives.
 */
export interface KafkaMockCluster {
  brokers: string[];
  stop(): Promise<void>;
}

export const kcatInstalled = () =>
  spawnSync('sh', ['-c', 'command -v kcat'], { stdio: 'ignore' }).status === 0;

export async function startKafkaMockCluster(timeoutMs = 10_000): Promise<KafkaMockCluster> {
  // A consumer keeps kcat (and so the mock cluster) alive; `-d mock` makes it print the bootstrap address.
  const child = spawn(
    'kcat',
    [
      '-X',
      'test.mock.num.brokers=1',
      '-b',
      'mock:9092',
      '-C',
      '-t',
      'warmup',
      '-o',
      'end',
      '-q',
      '-d',
      'mock',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const port = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error('the kcat mock cluster did not start')), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      void stop();
      reject(err);
    };
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`kcat exited (${code}) before the mock cluster started`)));
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /bootstrap\.servers=127\.0\.0\.1:(\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        // Keep draining kcat's debug output so its pipe never fills.
        output = '';
        child.stderr.removeAllListeners('data');
        child.stderr.resume();
        resolve(found[1]);
      }
    });
  });
  return { brokers: [`127.0.0.1:${port}`], stop };
}
