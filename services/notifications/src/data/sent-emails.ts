import type { Connection } from 'mongoose';

/** What was sent, one document per job (= event id): the worker's own record against sending twice. */
export interface SentEmail {
  _id: string;
  to: string;
  subject: string;
  template: string;
  messageId: string;
  sentAt: Date;
}

export function sentEmails(mongo: Connection) {
  return mongo.collection<SentEmail>('sent_emails');
}
