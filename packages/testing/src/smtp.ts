import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  messageId: string;
  raw: string;
  receivedAt: Date;
}

export interface TestSmtp {
  port: number;
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  messages: CapturedMail[];
  /** Waits for a message matching the predicate (the first one by default). */
  waitForMessage(predicate?: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  /**
   * Called with each message before it is accepted; while the promise is pending the sender waits
   * for the SMTP answer (a test can stop a worker mid-send here). Throw to reject the message.
   */
  beforeAccept?: (mail: CapturedMail) => Promise<void>;
  close(): Promise<void>;
}

/** A real SMTP server on a free port that parses and keeps every message it accepts. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const state: TestSmtp = {} as TestSmtp;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        PostalMime.parse(raw)
          .then(async (parsed) => {
            const mail: CapturedMail = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html ?? '',
              headers: Object.fromEntries(parsed.headers.map((h) => [h.key, h.value])),
              messageId: parsed.messageId ?? '',
              raw,
              receivedAt: new Date(),
            };
            if (state.beforeAccept) await state.beforeAccept(mail);
            messages.push(mail);
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(state, {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessage(predicate: (mail: CapturedMail) => boolean = () => true, timeoutMs = 15_000) {
      return waitFor(() => messages.find(predicate), 'an email', timeoutMs);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
