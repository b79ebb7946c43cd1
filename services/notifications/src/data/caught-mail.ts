import type { Connection } from 'mongoose';

/** A message the catcher kept, as /dev/mail lists it. */
export interface CaughtMail {
  _id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the message, in order, without repeats. */
  links: string[];
  receivedAt: Date;
}

export function caughtMail(mongo: Connection) {
  return mongo.collection<CaughtMail>('caught_mail');
}

/** /dev/mail lists the newest messages: read in this order, not sorted from every message kept. */
export async function ensureCaughtMailIndexes(mongo: Connection): Promise<void> {
  await caughtMail(mongo).createIndex({ receivedAt: -1 }, { name: 'newest' });
}
