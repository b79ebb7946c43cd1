import Fastify from 'fastify';
import type { Connection } from 'mongoose';
import nodemailer from 'nodemailer';
import {
  CookieClient,
  type TestMongo,
  leaseRedisDb,
  listen,
  parseSetCookie,
  startTestMongo,
  startTestSmtp,
  useFailCommand,
} from '../src';

jest.setTimeout(60_000);

describe('test helpers', () => {
  it('leases distinct Redis databases to concurrent holders and empties them on release', async () => {
    const [a, b] = await Promise.all([leaseRedisDb(), leaseRedisDb()]);
    try {
      expect(a.db).not.toBe(b.db);
      await a.redis.set('k', '1');
      expect(await b.redis.get('k')).toBeNull();
    } finally {
      await a.release();
      await b.release();
    }
  });

  it('captures a message sent over SMTP with its subject and text', async () => {
    const smtp = await startTestSmtp();
    const transport = nodemailer.createTransport(smtp.url);
    try {
      await transport.sendMail({
        from: 'a@example.com',
        to: 'b@example.com',
        subject: 'Hello',
        text: 'Body text',
      });
      const mail = await smtp.waitForMessage((m) => m.subject === 'Hello');
      expect(mail.to).toEqual(['b@example.com']);
      expect(mail.text.trim()).toBe('Body text');
    } finally {
      transport.close();
      await smtp.close();
    }
  });

  // (Through the real gateway too: services/gateway/test/test-gateway.ts is used by every service's tests.)
  it('keeps cookies a server sets and sends them back', async () => {
    const upstream = Fastify();
    upstream.post('/api/login', async (_req, reply) => {
      reply.header('set-cookie', 'sid=abc; Path=/; HttpOnly; SameSite=Lax');
      return { ok: true };
    });
    upstream.get('/api/auth/me', async (req) => ({ cookie: req.headers.cookie ?? null }));
    const service = await listen(upstream);
    try {
      const client = new CookieClient(service.url);
      const login = await client.post('/api/login', {});
      expect(login.setCookies[0]).toMatchObject({
        name: 'sid',
        value: 'abc',
        attributes: { httponly: true },
      });
      const me = await client.get('/api/auth/me');
      expect(me.json().cookie).toBe('sid=abc');
    } finally {
      await service.close();
    }
  });

  it('reads a deletion cookie as expired', () => {
    expect(parseSetCookie('sid=; Max-Age=0; Path=/').attributes['max-age']).toBe('0');
  });
});

describe('fail points for fault tests', () => {
  let mongo: TestMongo;
  let aimedAt: Connection;
  let other: Connection;
  beforeAll(async () => {
    mongo = await startTestMongo({ testCommands: true });
    aimedAt = await mongo.database('aimed');
    other = await mongo.database('other');
  });
  afterAll(() => mongo.stop());
  const faults = useFailCommand(() => aimedAt);

  it('strike only the connection they are aimed at, as often as asked, and count what it sent', async () => {
    await faults.failNext({ failCommands: ['insert'], errorCode: 2 });
    // Another service's database on the same server: its connection has another appName.
    await other.collection('things').insertOne({ n: 1 });
    await expect(aimedAt.collection('things').insertOne({ n: 1 })).rejects.toMatchObject({ code: 2 });
    await aimedAt.collection('things').insertOne({ n: 2 });
    expect(faults.sent('insert', 'things')).toBe(2);
    expect(faults.failed('insert', 'things')).toBe(1);
    expect(await aimedAt.collection('things').countDocuments()).toBe(1);
  });

  it('leave no fault armed after a test', async () => {
    await faults.failNext({ failCommands: ['find'], errorCode: 2 }, 100);
  });

  it('(the test after it)', async () => {
    expect(await aimedAt.collection('things').findOne({ n: 2 })).toMatchObject({ n: 2 });
    expect(faults.failed('find')).toBe(0);
  });
});
