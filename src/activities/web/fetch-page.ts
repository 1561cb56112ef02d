import type { IncomingMessage } from 'node:http';
import { guardedGet, type Resolver } from './guarded-get';
import { isPrivateHost } from './url-hosts';

/** Gemini CLI's direct fetch: 10 s per URL, bodies over 10 MB refused, text capped later by the tool. */
const FETCH_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const USER_AGENT = 'Mozilla/5.0 (compatible; durable-agent web_fetch)';

/**
 * The page at `url` as text. Redirects are followed by hand so that each new host is checked like
 * the first (a public page cannot redirect the fetch into the private network).
 */
export async function fetchPageText(
  url: string,
  signal: AbortSignal,
  allowPrivate: boolean,
  timeoutMs = FETCH_TIMEOUT_MS,
  resolver?: Resolver,
): Promise<string> {
  let target = url;
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await guardedGet(target, {
      signal: deadline,
      headers: { 'User-Agent': USER_AGENT },
      allowPrivate,
      resolver,
    }).catch((err: unknown) => {
      throw new Error(describeFetchError(err, timeoutMs));
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      target = new URL(location, target).href;
      if (!allowPrivate && (await isPrivateHost(target))) throw new Error(`redirected to a refused host: ${target}`);
      continue;
    }
    if (status < 200 || status > 299) {
      response.resume();
      throw new Error(`request failed with status ${status} ${response.statusMessage ?? ''}`.trim());
    }
    const body = await readLimited(response).catch((err: unknown) => {
      throw new Error(describeFetchError(err, timeoutMs));
    });
    const type = response.headers['content-type'] ?? '';
    return type === '' || type.toLowerCase().includes('text/html') ? htmlToText(body) : body;
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const error = err as Error & { cause?: { name?: string; message?: string } };
  if (error.name === 'TimeoutError' || error.cause?.name === 'TimeoutError')
    return `no answer within ${timeoutMs / 1000} s`;
  return error.message;
}

async function readLimited(response: IncomingMessage): Promise<string> {
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    response.destroy();
    throw new Error(`the page is larger than ${MAX_BODY_BYTES} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_BODY_BYTES) {
      response.destroy();
      throw new Error(`the page is larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The readable text of an HTML page: scripts, styles and tags dropped, entities decoded, blank runs collapsed. */
export function htmlToText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(br|\/p|\/div|\/h[1-6]|\/li|\/tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (all, name: string) =>
      name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : (entities[name.toLowerCase()] ?? all),
    )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
