import type { Logger } from '@lsp/service-kit';
import puppeteer, { type Browser } from 'puppeteer-core';
import { LOOPBACK_CHROMIUM_FLAGS } from './chromium-flags';

/** The loopback flags, headless, plus what a long-lived renderer in a container wants. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  ...LOOPBACK_CHROMIUM_FLAGS,
  '--disable-dev-shm-usage',
  '--font-render-hinting=none',
];

/**
 * One long-lived Chromium for the worker, at most `concurrency` pages at once. When Chromium dies the
 * next render starts a new one; close() ends it, so no Chromium outlives the worker.
 */
export class PdfRenderer {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  constructor(private readonly opts: { executablePath: string; concurrency: number; logger: Logger }) {}

  private launch(): Promise<Browser> {
    const launching = puppeteer
      .launch({ executablePath: this.opts.executablePath, args: CHROMIUM_ARGS, headless: true, pipe: true })
      .then((browser) => {
        browser.on('disconnected', () => {
          if (this.browser === launching) this.browser = null;
          if (!this.closed) this.opts.logger.warn('Chromium went away; the next render starts a new one');
        });
        this.opts.logger.info({ chromiumPid: browser.process()?.pid }, 'Chromium started');
        return browser;
      });
    launching.catch(() => {
      if (this.browser === launching) this.browser = null;
    });
    return launching;
  }

  /** The process id of the current Chromium, if one runs (for tests and metrics). */
  async chromiumPid(): Promise<number | undefined> {
    return this.browser ? (await this.browser).process()?.pid : undefined;
  }

  private async slot(): Promise<() => void> {
    if (this.active >= this.opts.concurrency)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    return () => {
      this.active -= 1;
      this.waiting.shift()?.();
    };
  }

  async render(html: string): Promise<Buffer> {
    if (this.closed) throw new Error('the PDF renderer is closed');
    const release = await this.slot();
    try {
      this.browser ??= this.launch();
      const browser = await this.browser;
      const page = await browser.newPage();
      try {
        // The page needs nothing from the network: any request it tries is refused.
        await page.setRequestInterception(true);
        page.on('request', (request) =>
          request.url().startsWith('data:') ? request.continue() : request.abort(),
        );
        await page.setContent(html, { waitUntil: 'load' });
        const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
        return Buffer.from(pdf);
      } finally {
        await page.close().catch(() => undefined);
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = await this.browser?.catch(() => null);
    this.browser = null;
    if (!browser) return;
    const child = browser.process();
    await browser.close().catch(() => undefined);
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
