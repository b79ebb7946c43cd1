import { notFound } from '@lsp/service-kit';
import type { Connection } from 'mongoose';
import { type CaughtMail, caughtMail } from '../data/caught-mail';
import { renderMailPage } from '../dev-mail/page';

/** The pages show the newest messages only. */
const MAIL_PAGE_SIZE = 100;

export interface MailboxDeps {
  mongo: Connection;
}

const newest = (deps: MailboxDeps) =>
  caughtMail(deps.mongo).find().sort({ receivedAt: -1 }).limit(MAIL_PAGE_SIZE).toArray();

/** A caught message as the JSON routes answer it. */
const asJson = (mail: CaughtMail) => ({
  id: mail._id,
  from: mail.from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  links: mail.links,
  receivedAt: mail.receivedAt.toISOString(),
});

/** /dev/mail: the newest messages as a page. */
export async function mailPage(deps: MailboxDeps): Promise<string> {
  return renderMailPage(await newest(deps));
}

export async function listMail(deps: MailboxDeps) {
  return { messages: (await newest(deps)).map(asJson) };
}

export async function oneMail(deps: MailboxDeps, id: string) {
  const found = await caughtMail(deps.mongo).findOne({ _id: id });
  if (!found) throw notFound('No such email');
  return asJson(found);
}

export async function clearMail(deps: MailboxDeps) {
  const { deletedCount } = await caughtMail(deps.mongo).deleteMany({});
  return { success: true, deleted: deletedCount };
}
