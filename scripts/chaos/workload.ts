/**
 * The chaos run's traffic: people doing what people do on the platform, at a fixed arrival rate
 * (open loop: a slow answer never delays the next arrival). Each acknowledged (2xx) request is
 * remembered with what it should have stored, for the reconciliation afterwards. Nothing is retried
 * blindly: a request that failed is simply not acknowledged, as a person would see it.
 */
import { randomUUID } from 'node:crypto';
import type { CookieClient, TestResponse } from '@lsp/testing';
import {
  type Panel,
  loadDefaultPanel,
  panelWithRatesCut,
  serialisePanel,
} from '../../services/search/src/panel';
import {
  LOAN_TYPES,
  type LoanType,
  SEARCH_PAYLOADS as SEARCHES,
  findVerificationLink,
  sameOrigin,
} from '../lib/journeys';

const PASSWORD = 'chaos-password-1';

interface Person {
  email: string;
  name: string;
  client: CookieClient;
  state: 'registered' | 'verified' | 'signed-in';
  userId?: string;
  busy: boolean;
  savedSearches: string[];
  dips: string[];
}

export interface Acknowledged {
  searchRuns: Array<{ id: string; loanType: LoanType }>;
  registrations: string[];
  verifications: string[];
  signIns: number;
  savedSearches: string[];
  dips: string[];
  shares: Array<{ dipId: string; email: string }>;
  pdfs: number;
  /** Lender panel versions an ops user activated (the activation answered 200). */
  activations: PanelActivationAck[];
}

export interface PanelActivationAck {
  version: string;
  previousVersion: string | null;
  activatedAt: string;
}

/** The ops user's address: the stack lists it in OPS_EMAILS (run.ts). */
export const CHAOS_OPS_EMAIL = 'chaos-ops@ops.example';

export interface Workload {
  requests: number;
  networkErrors: number;
  serverErrors: Array<{ at: number; status: number; what: string }>;
  /** Answers per operation and status ('network' when none came), for the summary table. */
  answers: Map<string, Map<string, number>>;
  acknowledged: Acknowledged;
  /** Every panel this run built or shipped with, by version (what the reconciliation re-prices on). */
  panels: Map<string, Panel>;
  /**
   * An ops user (registered, verified and signed in on first use) uploads the shipped panel with every
   * rate `cut` lower as a new version and activates it; recorded when the activation answered 200.
   * A try that got no answer is made again under a new version, up to three times.
   */
  activateCheaperPanel(cut: number): Promise<void>;
  /** Starts the arrivals; the returned function stops them and waits for those in flight. */
  run(rate: number): () => Promise<void>;
}

export function createWorkload(baseUrl: string, newClient: () => CookieClient): Workload {
  const people: Person[] = [];
  const origin = sameOrigin(baseUrl);
  const workload: Workload = {
    requests: 0,
    networkErrors: 0,
    serverErrors: [],
    answers: new Map(),
    acknowledged: {
      searchRuns: [],
      registrations: [],
      verifications: [],
      signIns: 0,
      savedSearches: [],
      dips: [],
      shares: [],
      pdfs: 0,
      activations: [],
    },
    panels: new Map(),
    activateCheaperPanel: (cut) => activateCheaperPanel(cut),
    run(rate) {
      const inFlight = new Set<Promise<void>>();
      let stopped = false;
      const interval = 1000 / rate;
      let next = Date.now();
      const tick = () => {
        if (stopped) return;
        const job = step().finally(() => inFlight.delete(job));
        inFlight.add(job);
        next += interval;
        setTimeout(tick, Math.max(0, next - Date.now()));
      };
      tick();
      return async () => {
        stopped = true;
        await Promise.all([...inFlight]);
      };
    },
  };
  const ack = workload.acknowledged;

  /** One request; null when it never got an answer. 5xx answers are recorded with their time. */
  async function send(
    client: CookieClient,
    what: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<TestResponse | null> {
    workload.requests += 1;
    const count = (outcome: string) => {
      const byStatus = workload.answers.get(what) ?? new Map<string, number>();
      byStatus.set(outcome, (byStatus.get(outcome) ?? 0) + 1);
      workload.answers.set(what, byStatus);
    };
    try {
      const res = await client.request(method, path, { body, headers: origin });
      if (res.status >= 500) workload.serverErrors.push({ at: Date.now(), status: res.status, what });
      count(String(res.status));
      return res;
    } catch {
      workload.networkErrors += 1;
      count('network');
      return null;
    }
  }

  const ok = (res: TestResponse | null) => res !== null && res.status >= 200 && res.status < 300;
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

  async function anonymousSearch() {
    const loanType = pick(LOAN_TYPES);
    const res = await send(newClient(), `search ${loanType}`, 'POST', `/api/${loanType}`, {
      ...SEARCHES[loanType],
      projectName: 'Chaos anonymous',
    });
    const id = ok(res) ? res!.json()?.data?.SearchRunId : undefined;
    if (typeof id === 'string') ack.searchRuns.push({ id, loanType });
  }

  async function register() {
    const email = `chaos-${randomUUID()}@example.com`;
    const person: Person = {
      email,
      name: 'Chaos Tester',
      client: newClient(),
      state: 'registered',
      busy: true,
      savedSearches: [],
      dips: [],
    };
    const res = await send(person.client, 'register', 'POST', '/api/auth/register', {
      name: person.name,
      email,
      password: PASSWORD,
    });
    if (ok(res)) {
      ack.registrations.push(email);
      people.push(person);
    }
    person.busy = false;
  }

  async function verify(person: Person) {
    const mail = await send(person.client, 'read mail', 'GET', '/dev/mail/messages');
    if (!ok(mail)) return;
    const link = findVerificationLink(mail!.json().messages, person.email);
    if (!link) return;
    const token = new URL(link).searchParams.get('token');
    const res = await send(
      person.client,
      'verify',
      'GET',
      `/api/verify-email?token=${encodeURIComponent(token!)}`,
    );
    if (ok(res)) {
      person.state = 'verified';
      ack.verifications.push(person.email);
    }
  }

  async function signIn(person: Person) {
    const res = await send(person.client, 'sign in', 'POST', '/api/login', {
      email: person.email,
      password: PASSWORD,
    });
    if (ok(res)) {
      ack.signIns += 1;
      person.state = 'signed-in';
      const me = await send(person.client, 'me', 'GET', '/api/auth/me');
      person.userId = ok(me) ? (me!.json().user?.id ?? person.userId) : person.userId;
    }
  }

  async function saveSearch(person: Person) {
    const loanType = pick(LOAN_TYPES);
    const projectName = `Chaos ${randomUUID().slice(0, 8)}`;
    const searchData = { ...SEARCHES[loanType], projectName };
    const run = await send(person.client, `search ${loanType}`, 'POST', `/api/${loanType}`, searchData);
    if (!ok(run) || !person.userId) return;
    const apiResponse = run!.json();
    if (typeof apiResponse?.data?.SearchRunId === 'string')
      ack.searchRuns.push({ id: apiResponse.data.SearchRunId, loanType });
    const res = await send(person.client, 'save search', 'POST', '/api/search', {
      userId: person.userId,
      loanType,
      searchData,
      apiResponse,
    });
    const id = ok(res) ? res!.json()?.search?.id : undefined;
    if (typeof id === 'string') {
      ack.savedSearches.push(id);
      person.savedSearches.push(id);
    }
  }

  async function createDip(person: Person) {
    const searchId = pick(person.savedSearches);
    const res = await send(person.client, 'create DIP', 'POST', `/api/online-dip/create/${searchId}/0`, {
      validHours: 48,
    });
    const dipId = ok(res) ? res!.json()?.dipId : undefined;
    if (typeof dipId === 'string') {
      ack.dips.push(dipId);
      person.dips.push(dipId);
    }
  }

  async function share(person: Person) {
    const dipId = pick(person.dips);
    const recipient = `chaos-recipient-${randomUUID()}@example.com`;
    const res = await send(person.client, 'share DIP', 'POST', `/api/online-dip/${dipId}/share`, {
      recipients: [recipient],
      message: 'Please take a look',
    });
    if (ok(res) && !res!.json()?.fallback) ack.shares.push({ dipId, email: recipient });
  }

  async function downloadPdf(person: Person) {
    const res = await send(person.client, 'PDF', 'GET', `/api/online-dip/pdf/${pick(person.dips)}`);
    if (ok(res) && res!.text.startsWith('%PDF')) ack.pdfs += 1;
  }

  const shipped = loadDefaultPanel();
  workload.panels.set(shipped.version, shipped);
  let ops: CookieClient | null = null;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The ops user's session: set up once, each step tried again until it answers (setup, not acknowledged). */
  async function opsClient(): Promise<CookieClient> {
    if (ops) return ops;
    const client = newClient();
    const until = async (attempt: () => Promise<boolean>) => {
      for (let i = 0; i < 60 && !(await attempt()); i++) await sleep(1000);
    };
    // 409: registered by an earlier try whose answer was lost.
    await until(async () => {
      const res = await send(client, 'ops register', 'POST', '/api/auth/register', {
        name: 'Chaos Operator',
        email: CHAOS_OPS_EMAIL,
        password: PASSWORD,
      });
      return ok(res) || res?.status === 409;
    });
    await until(async () => {
      const mail = await send(client, 'ops read mail', 'GET', '/dev/mail/messages');
      const link = ok(mail) ? findVerificationLink(mail!.json().messages, CHAOS_OPS_EMAIL) : undefined;
      if (!link) return false;
      const token = new URL(link).searchParams.get('token')!;
      const res = await send(
        client,
        'ops verify',
        'GET',
        `/api/verify-email?token=${encodeURIComponent(token)}`,
      );
      // 409: verified by a try whose answer was lost.
      return ok(res) || res?.status === 409;
    });
    await until(async () =>
      ok(
        await send(client, 'ops sign in', 'POST', '/api/login', {
          email: CHAOS_OPS_EMAIL,
          password: PASSWORD,
        }),
      ),
    );
    ops = client;
    return client;
  }

  async function activateCheaperPanel(cut: number): Promise<void> {
    const client = await opsClient();
    for (let attempt = 0; attempt < 3; attempt++) {
      const version = `chaos-${randomUUID().slice(0, 8)}`;
      const panel = panelWithRatesCut(
        shipped,
        version,
        cut,
        `Chaos run: rates ${Math.round(cut * 100)}% lower`,
      );
      workload.panels.set(version, panel);
      const content = serialisePanel(panel);
      let uploaded = false;
      for (let i = 0; i < 10 && !uploaded; i++) {
        const res = await send(client, 'ops upload panel', 'POST', '/api/ops/panel/drafts', {
          fileName: `${version}.jsonl`,
          content,
        });
        // 409: stored by a try whose answer was lost (the same version is this same file).
        uploaded = ok(res) || res?.status === 409;
        if (!uploaded) await sleep(1000);
      }
      if (!uploaded) continue;
      const res = await send(
        client,
        'ops activate panel',
        'POST',
        `/api/ops/panel/versions/${encodeURIComponent(version)}/activate`,
      );
      if (res?.status === 200) {
        const { previousVersion, activatedAt } = res.json() as PanelActivationAck;
        ack.activations.push({ version, previousVersion, activatedAt });
        return;
      }
      await sleep(1000);
    }
  }

  /** One arrival: what a person at this point of their journey would do next. */
  async function step() {
    const roll = Math.random();
    const idle = people.filter((p) => !p.busy);
    if (roll < 0.3) return anonymousSearch();
    if (roll < 0.42 || idle.length === 0) return register();
    const person = pick(idle);
    person.busy = true;
    try {
      if (person.state === 'registered') return await verify(person);
      if (person.state === 'verified') return await signIn(person);
      const r = Math.random();
      if (person.savedSearches.length === 0 || r < 0.3) return await saveSearch(person);
      if (person.dips.length === 0 || r < 0.55) return await createDip(person);
      if (r < 0.8) return await share(person);
      return await downloadPdf(person);
    } finally {
      person.busy = false;
    }
  }

  return workload;
}
