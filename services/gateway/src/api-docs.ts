import {
  DOCS_ROUTES,
  DOMAIN_RELEASES,
  type DomainReleaseInfo,
  PUBLIC_API_ROUTES,
  buildOpenApiDocument,
  openApiPathOf,
} from '@lsp/contracts';
import { PLATFORM_VERSION, declareRoute, escapeHtml, styleElement } from '@lsp/service-kit';
import type { FastifyInstance } from 'fastify';

/**
 * The public API's documentation at the edge: `GET /api/docs/openapi.json` (OpenAPI 3.1, generated
 * from the routes declared in @lsp/contracts) and `GET /api/docs`, the same document as a page. The
 * page is plain server-rendered HTML with one inline stylesheet and no script, so it works under the
 * gateway's Content-Security-Policy and without any third-party asset.
 */

type Json = Record<string, unknown>;

export const API_DOCS_INFO = {
  title: 'Loan search and Decision-in-Principle platform: public API',
  version: PLATFORM_VERSION,
  description:
    'Every public route of the platform, served through the gateway. Sign in with POST /api/login; the ' +
    'session cookie it sets authenticates the calls that need a session. A broker system calls the ' +
    'routes that list the `apiKey` scheme with `Authorization: Bearer <key>` instead (keys are made with ' +
    'POST /api/api-keys from a signed-in session); creating POSTs take `Idempotency-Key`. Errors answer ' +
    '`{ "success": false, "error": "…" }`, with `fields` for invalid requests. Request ids: send ' +
    '`x-request-id` (8-64 of A-Z a-z 0-9 . _ -) to correlate, or read the one every answer carries.',
};

export function apiDocument(): Json {
  return buildOpenApiDocument(PUBLIC_API_ROUTES, API_DOCS_INFO, DOMAIN_RELEASES);
}

/** A JSON Schema as indented text: exact, and readable enough for an integrator. */
const schemaBlock = (schema: unknown) => `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;

function parametersSection(parameters: Json[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(String(p.name))}</code></td><td>${escapeHtml(String(p.in))}</td>` +
        `<td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
    )
    .join('');
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function contentOf(content: unknown): string {
  if (!content) return '<p class="muted">No body.</p>';
  return Object.entries(content as Record<string, { schema?: unknown }>)
    .map(([type, media]) => `<p><code>${escapeHtml(type)}</code></p>${schemaBlock(media.schema)}`)
    .join('');
}

function operationSection(path: string, method: string, operation: Json): string {
  const id = escapeHtml(String(operation.operationId));
  const parameters = (operation.parameters ?? []) as Json[];
  const requestBody = operation.requestBody as { content?: unknown } | undefined;
  const responses = Object.entries(
    operation.responses as Record<string, { description: string; content?: unknown }>,
  )
    .map(
      ([status, response]) =>
        `<details><summary><span class="status s${status[0]}">${escapeHtml(status)}</span> ${escapeHtml(response.description)}</summary>${contentOf(response.content)}</details>`,
    )
    .join('');
  return `<section class="operation" id="${id}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(String(operation.summary))}</p>
<p class="muted">${escapeHtml(String(operation.description ?? ''))} <code>operationId: ${id}</code></p>
${parametersSection(parameters)}
${requestBody ? `<h4>Request body</h4>${contentOf(requestBody.content)}` : ''}
<h4>Responses</h4>${responses}
</section>`;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem 2rem;color:#1a1a1a}
h1{font-size:1.6rem}h2{border-bottom:2px solid #ddd;padding-bottom:.3rem;margin-top:2.5rem;text-transform:capitalize}
h3{font-size:1.05rem;margin:0}h4{margin:.8rem 0 .3rem;font-size:.9rem}.operation{border:1px solid #ddd;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;color:#fff;font-size:.8rem;padding:.1rem .3rem;background:#555}
.get{background:#1f6feb}.post{background:#1a7f37}.put{background:#9a6700}.patch{background:#8250df}.delete{background:#cf222e}
.status{font-weight:bold}.s2{color:#1a7f37}.s4{color:#9a6700}.s5{color:#cf222e}.muted{color:#555;font-size:.9rem}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:.8rem;max-height:30rem}table{border-collapse:collapse;font-size:.85rem}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}nav a{margin-right:.8rem}`;

/** Which release of its contracts each domain runs (packages/contracts/released/). */
function releasesLine(releases: Record<string, DomainReleaseInfo> | undefined): string {
  if (!releases || Object.keys(releases).length === 0) return '';
  const each = Object.entries(releases)
    .map(([domain, release]) => `${escapeHtml(domain)} release ${release.release}`)
    .join(', ');
  return `<p class="muted release">Released contracts: ${each}.</p>`;
}

/** The whole document as one page: a section per service, an entry per operation. */
export function renderApiDocsPage(document: Json, styleNonce?: string): string {
  const info = document.info as {
    title: string;
    version: string;
    description?: string;
    'x-domain-versions'?: Record<string, DomainReleaseInfo>;
  };
  const paths = document.paths as Record<string, Record<string, Json>>;
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = ((operation.tags as string[] | undefined) ?? ['other'])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(path, method, operation)]);
    }
  }
  // The OpenAPI 3.1 `webhooks`: what this platform POSTs to a user's endpoint, one entry per event.
  const webhooks = (document.webhooks ?? {}) as Record<string, Record<string, Json>>;
  for (const [event, operations] of Object.entries(webhooks)) {
    for (const [method, operation] of Object.entries(operations)) {
      byTag.set('webhooks', [
        ...(byTag.get('webhooks') ?? []),
        operationSection(`your endpoint: ${event}`, method, operation),
      ]);
    }
  }
  const tagText = new Map(
    ((document.tags ?? []) as Array<{ name: string; description?: string }>).map((tag) => [
      tag.name,
      tag.description,
    ]),
  );
  const nav = [...byTag.keys()].map((tag) => `<a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join('');
  const sections = [...byTag]
    .map(([tag, operations]) => {
      const release = tagText.get(tag);
      const releaseLine = release
        ? `<p class="muted release">Contracts of ${escapeHtml(tag)}: ${escapeHtml(release)}.</p>`
        : '';
      return `<h2 id="${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${releaseLine}${operations.join('\n')}`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)}</title>${styleElement(STYLE, styleNonce)}</head>
<body><h1>${escapeHtml(info.title)}</h1>
<p class="muted">Version ${escapeHtml(info.version)}. The machine-readable form: <a href="${escapeHtml(openApiPathOf(DOCS_ROUTES[0].path))}">OpenAPI 3.1 document</a>.</p>
<p>${escapeHtml(info.description ?? '')}</p>
${releasesLine(info['x-domain-versions'])}
<nav>${nav}</nav>
${sections}
</body></html>`;
}

/** Where the answer's nonce goes in the page built once (not a character a nonce or the page has). */
const NONCE_SLOT = '\u0000style-nonce\u0000';

export function registerApiDocs(app: FastifyInstance): void {
  // Built once, at the first request: the declared routes do not change while the process runs.
  let document: Json | null = null;
  // The page is built once; only its style nonce, the answer's own, differs between answers.
  let page: [beforeNonce: string, afterNonce: string] | null = null;
  const current = () => (document ??= apiDocument());
  declareRoute(app, 'getOpenApiDocument', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return current();
  });
  declareRoute(app, 'getApiDocsPage', async (request, reply) => {
    reply.header('cache-control', 'public, max-age=300').type('text/html; charset=utf-8');
    const [beforeNonce, afterNonce] = (page ??= renderApiDocsPage(current(), NONCE_SLOT).split(
      NONCE_SLOT,
    ) as [string, string]);
    return `${beforeNonce}${escapeHtml(request.styleNonce)}${afterNonce}`;
  });
}
