import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import { caughtMail, ensureCaughtMailIndexes } from '../data/caught-mail';

const LINK = /https?:\/\/[^\s"'<>]+/g;

export function linksIn(text: string): string[] {
  return [...new Set((text.match(LINK) ?? []).map((link) => link.replace(/&amp;/g, '&')))];
}

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

/**
 * The single-machine stand-in for a mail relay: an SMTP server on loopback that keeps every
 * message in the notifications database, so a person running the platform locally can open their
 * verification link from /dev/mail. Never used when SMTP_URL is set.
 */
export async function startMailCatcher(opts: {
  port: number;
  mongo: Connection;
  logger: Logger;
}): Promise<MailCatcher> {
  // Loaded only when the catcher runs: they are development dependencies, absent from production images.
  const { default: PostalMime } = await import('postal-mime');
  const { SMTPServer } = await import('smtp-server');
  const collection = caughtMail(opts.mongo);
  await ensureCaughtMailIndexes(opts.mongo);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 5 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then(async (parsed) => {
            const text = parsed.text ?? '';
            await collection.insertOne({
              _id: randomUUID(),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '(no subject)',
              text,
              html: parsed.html ?? '',
              links: linksIn(text || (parsed.html ?? '')),
              receivedAt: new Date(),
            });
            callback();
          })
          .catch((err: Error) => {
            opts.logger.error({ err }, 'mail catcher could not keep a message');
            callback(err);
          });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  opts.logger.info({ port }, 'mail catcher listening');
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
