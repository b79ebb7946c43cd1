export interface ParsedCookie {
  name: string;
  value: string;
  /** Attribute names in lower case (`httponly`, `secure`, `samesite`, `path`, `max-age`, ...). */
  attributes: Record<string, string | true>;
}

/** Reads one Set-Cookie header: `name=value; HttpOnly; SameSite=Lax; Path=/`. */
export function parseSetCookie(header: string): ParsedCookie {
  const [pair = '', ...rest] = header.split(';');
  const eq = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [key = '', ...value] = part.trim().split('=');
    if (key) attributes[key.toLowerCase()] = value.length ? value.join('=') : true;
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (throws with the body text when it is not JSON). */
  json<T = any>(): T;
  /** The Set-Cookie headers of this response, parsed. */
  setCookies: ParsedCookie[];
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Sends this text as the body as is (for malformed or oversized bodies). */
  rawBody?: string;
}

/**
 * A browser-like client for tests through the gateway: keeps the cookies the server sets and sends
 * them back, never follows redirects (tests assert them), and never throws on a non-2xx answer.
 */
export class CookieClient {
  private readonly jar = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  clearCookies(): void {
    this.jar.clear();
  }

  get(path: string, options: RequestOptions = {}) {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, { ...options, body });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.jar.size) {
      headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    const setCookies = res.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of setCookies) {
      const maxAge = cookie.attributes['max-age'];
      const expires = cookie.attributes.expires;
      const expired =
        cookie.value === '' ||
        (typeof maxAge === 'string' && Number(maxAge) <= 0) ||
        (typeof expires === 'string' && Date.parse(expires) <= Date.now());
      if (expired) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    return {
      status: res.status,
      headers: res.headers,
      text,
      setCookies,
      json() {
        try {
          return JSON.parse(text);
        } catch {
          throw new Error(`expected JSON, got ${res.status}: ${text.slice(0, 300)}`);
        }
      },
    };
  }
}
