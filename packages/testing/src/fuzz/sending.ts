// Cases sent as raw HTTP (the path and body exactly as generated, so nothing on the way normalises them),
// and their answers judged: a 5xx or no answer fails, and so does any refused input not refused.
import http from 'node:http';
import type { FuzzCase } from './cases';

export interface FuzzAnswer {
  case: FuzzCase;
  /** 0 when no answer came (connection reset, timeout). */
  status: number;
  text: string;
  error?: string;
}

/** Sends one case as raw HTTP (the path and body exactly as generated), never throwing. */
export function sendCase(
  baseUrl: string,
  fuzzCase: FuzzCase,
  headers: Record<string, string> = {},
  timeoutMs = 15_000,
): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Omit<FuzzAnswer, 'case'>) => {
      if (settled) return;
      settled = true;
      resolve({ case: fuzzCase, ...answer });
    };
    const body = fuzzCase.body === undefined ? undefined : Buffer.from(fuzzCase.body, 'utf8');
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: fuzzCase.method,
        path: fuzzCase.path,
        agent: false,
        headers: {
          accept: 'application/json',
          ...headers,
          ...(fuzzCase.contentType ? { 'content-type': fuzzCase.contentType } : {}),
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', (err) =>
          done({ status: response.statusCode ?? 0, text: '', error: err.message }),
        );
      },
    );
    request.setTimeout(timeoutMs, () => {
      done({ status: 0, text: '', error: `no answer within ${timeoutMs} ms` });
      request.destroy();
    });
    // A server that answers early (413) may close while the body is still being written.
    request.on('error', (err) => setTimeout(() => done({ status: 0, text: '', error: err.message }), 50));
    if (body) request.write(body);
    request.end();
  });
}

const excerpt = (text: string | undefined, max = 160) => {
  if (text === undefined) return '(none)';
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return text.length > max ? `${shown} (${text.length} chars)` : shown;
};

/** A failure as one line: the route, the case, the input and the answer. */
export function describeAnswer(answer: FuzzAnswer): string {
  const c = answer.case;
  return (
    `${c.method} ${excerpt(c.path, 120)} [${c.label}] body=${excerpt(c.body)} → ` +
    `${answer.status || answer.error} ${excerpt(answer.text)}`
  );
}

/** Whether an answer breaks the rules: a 5xx or no answer at all, or a non-refusal of a refused input. */
export function isFailure(answer: FuzzAnswer): boolean {
  if (answer.status === 0 || answer.status >= 500) return true;
  return answer.case.mustRefuse && !answer.case.refused(answer.status);
}

/** Sends the cases one at a time; the failures as lines (empty when all went well). */
export async function runCases(
  baseUrl: string,
  cases: FuzzCase[],
  headers: Record<string, string> = {},
): Promise<{ answers: FuzzAnswer[]; failures: string[] }> {
  const answers: FuzzAnswer[] = [];
  for (const fuzzCase of cases) answers.push(await sendCase(baseUrl, fuzzCase, headers));
  return { answers, failures: answers.filter(isFailure).map(describeAnswer) };
}

/** Adds the answers' statuses to a tally (for the summary line a fuzz file prints). */
export function tallyStatuses(answers: FuzzAnswer[], tally: Record<string, number>): void {
  for (const answer of answers) {
    const key = String(answer.status || 'none');
    tally[key] = (tally[key] ?? 0) + 1;
  }
}
