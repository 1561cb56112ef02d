import { z } from 'zod';
import { fenceUntrusted } from '../core/untrusted';
import { ToolError, type ActivityTool, type ToolDeps, type ToolResult, type WebAccess } from './types';
import { capText, escapeXml, normalizeUrl, rawGithubUrl, urlsIn, withCitations } from './web-text';

/** Gemini CLI's limits: the URL-context call, the direct fetch, and the characters kept of all pages. */
const PRIMARY_TIMEOUT_MS = 30_000;
const MAX_CONTENT_CHARS = 250_000;
const MAX_URLS = 20;

const schema = z.object({
  prompt: z
    .string()
    .refine((prompt) => prompt.trim() !== '', 'must not be empty: give the URL(s) and what to do with them')
    .superRefine((prompt, ctx) => {
      const problem = urlProblem(prompt);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(
      'What to do with which pages: instructions naming up to 20 URLs (http or https), e.g. ' +
        '"Summarize https://example.com/article".',
    ),
});

/**
 * Gemini CLI's `web_fetch`: a `generateContent` call with URL context reads the pages named in the
 * prompt and follows its instructions; its answer keeps the citations. When that call fails or comes
 * back empty, the pages are fetched directly (10 s each, 250 000 characters in all) and handed to a
 * second call. Private and local hosts are refused, and each host gets 10 requests a minute.
 * It reaches outside the workspace, so the policy asks before it runs in default mode.
 */
export const webFetchTool: ActivityTool<typeof schema> = {
  name: 'web_fetch',
  kind: 'fetch',
  reach: 'network',
  // The URL-context request and, when it fails, the request with the pages fetched directly.
  modelRequests: { calls: 2, contentChars: MAX_CONTENT_CHARS },
  description:
    'Fetches web pages named in the prompt (up to 20 http or https URLs) and processes their content as ' +
    'the prompt instructs: summarize, extract facts, compare. Local and private network addresses are refused.',
  parameters: schema,
  async execute(args, deps) {
    const web = webOf(deps);
    const { toFetch, skipped } = await selectUrls(web, urlsIn(args.prompt).urls);
    if (toFetch.length === 0) {
      throw new ToolError('web_fetch_failed', `All requested URLs were skipped: ${skipped.join(', ')}`);
    }
    const warning = skipped.length > 0 ? `[Warning] These URLs were skipped:\n${skipped.join('\n')}\n\n` : '';
    const primary = await askWithUrlContext(web, args.prompt, toFetch);
    if (primary !== undefined) return fetched(warning + primary, 'Content processed from the prompt');
    return fetched(
      warning + (await fetchDirectly(web, args.prompt, toFetch)),
      `${toFetch.length} URL(s) fetched directly`,
    );
  },
};

/** Why the prompt's URLs cannot be fetched, as Gemini CLI checks them before the call runs. */
function urlProblem(prompt: string): string | undefined {
  const { urls, errors } = urlsIn(prompt);
  if (errors.length > 0) return errors.join(' ');
  if (prompt.trim() !== '' && urls.length === 0)
    return 'must contain at least one URL starting with http:// or https://';
  if (urls.length > MAX_URLS) return `may name at most ${MAX_URLS} URLs`;
  return undefined;
}

function webOf(deps: ToolDeps): WebAccess {
  if (!deps.web) throw new ToolError('web_fetch_failed', 'Fetching web pages is not available on this worker.');
  return deps.web;
}

/** A page's text is written by whoever runs the site: it reaches the model fenced. */
function fetched(output: string, display: string): ToolResult {
  return { ok: true, output: fenceUntrusted('web', output), display };
}

async function selectUrls(web: WebAccess, urls: string[]): Promise<{ toFetch: string[]; skipped: string[] }> {
  const toFetch: string[] = [];
  const skipped: string[] = [];
  for (const url of [...new Set(urls.map(normalizeUrl))]) {
    if (await web.isBlocked(url)) skipped.push(`[Blocked host] ${url}`);
    else if (!web.takeRateSlot(url)) skipped.push(`[Rate limit exceeded] ${url}`);
    else toFetch.push(url);
  }
  return { toFetch, skipped };
}

/** The URL-context answer with its citations, or undefined when the fallback should run. */
async function askWithUrlContext(web: WebAccess, prompt: string, urls: string[]): Promise<string | undefined> {
  const text =
    `Carry out the user's instructions on the pages at the authorized URLs.\n\n` +
    `<user_instructions>\n${escapeXml(prompt)}\n</user_instructions>\n\n` +
    `<authorized_urls>\n${urls.join('\n')}\n</authorized_urls>\n`;
  try {
    const answer = await web.ask({ text, grounding: 'urlContext', timeoutMs: PRIMARY_TIMEOUT_MS });
    if (answer.text.trim() === '' && !answer.grounding?.groundingChunks?.length) return undefined;
    return withCitations(answer.text, answer.grounding);
  } catch (err) {
    if (err instanceof ToolError && err.kind === 'cancelled') throw err;
    return undefined;
  }
}

/** Gemini CLI's fallback: every page fetched here, the budget shared fairly, one more model call. */
async function fetchDirectly(web: WebAccess, prompt: string, urls: string[]): Promise<string> {
  const pages = await Promise.all(urls.map((url) => fetchPage(web, url)));
  if (pages.every((p) => p.error !== undefined)) {
    const reasons = pages.map((p) => `${p.url}: ${p.error}`).join(', ');
    throw new ToolError('web_fetch_failed', `Every direct fetch failed: ${reasons}`);
  }
  const budgeted = shareBudget(pages);
  const content = budgeted
    .map((p) => `<source url="${escapeXml(p.url)}">\n${escapeXml(p.text ?? `Error: ${p.error}`)}\n</source>`)
    .join('\n');
  const text =
    `Carry out the user's instructions using the content of the pages below.\n\n` +
    `<user_instructions>\n${escapeXml(prompt)}\n</user_instructions>\n\n` +
    `The pages could not be read through URL context, so their raw content was fetched instead. Answer from ` +
    `this content; do not try to open the URLs again.\n\n<content>\n${content}\n</content>\n`;
  try {
    return (await web.ask({ text })).text;
  } catch (err) {
    if (!(err instanceof ToolError) || err.kind === 'cancelled') throw err;
    throw new ToolError('web_fetch_failed', `Processing the fetched pages failed: ${err.message}`);
  }
}

interface Page {
  url: string;
  text?: string;
  error?: string;
}

async function fetchPage(web: WebAccess, url: string): Promise<Page> {
  const target = rawGithubUrl(url);
  try {
    if (target !== url && (await web.isBlocked(target))) throw new Error(`access to the host of ${target} is refused`);
    return { url, text: await web.fetchText(target) };
  } catch (err) {
    if (err instanceof ToolError && err.kind === 'cancelled') throw err;
    return { url, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Water-filling, as Gemini CLI does: the shortest pages first, each capped at a fair share of what is left. */
function shareBudget(pages: Page[]): Page[] {
  const shares = new Map<string, string>();
  let left = MAX_CONTENT_CHARS;
  const ok = pages.filter((p) => p.text !== undefined).sort((a, b) => a.text!.length - b.text!.length);
  ok.forEach((page, k) => {
    const text = capText(page.text!, Math.floor(left / (ok.length - k)));
    shares.set(page.url, text);
    left -= text.length;
  });
  return pages.map((p) => (shares.has(p.url) ? { url: p.url, text: shares.get(p.url) } : p));
}
