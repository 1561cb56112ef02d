/**
 * Pure text helpers of `web_fetch` and `google_web_search`, with Gemini CLI's rules: URLs are found
 * in the prompt by whitespace-separated tokens holding `://`; a GitHub `blob` page is fetched as its
 * raw file; a grounded answer gets `[n]` markers after each supported segment and a numbered list of
 * its sources.
 */

/** The grounding metadata of a Gemini answer, as far as the web tools read it. */
export interface Grounding {
  groundingChunks?: { web?: { uri?: string; title?: string } }[];
  groundingSupports?: { segment?: { endIndex?: number }; groundingChunkIndices?: number[] }[];
}

/** The http(s) URLs of a `web_fetch` prompt, and a message for each URL-like token that is not one. */
export function urlsIn(text: string): { urls: string[]; errors: string[] } {
  const urls: string[] = [];
  const errors: string[] = [];
  for (const token of text.split(/\s+/)) {
    if (!token.includes('://')) continue;
    let url: URL;
    try {
      url = new URL(token);
    } catch {
      errors.push(`Malformed URL: "${token}".`);
      continue;
    }
    if (url.protocol === 'http:' || url.protocol === 'https:') urls.push(url.href);
    else errors.push(`Unsupported protocol in "${token}": only http and https URLs can be fetched.`);
  }
  return { urls, errors };
}

/** A URL with its host in lower case, no default port and no trailing slash: duplicates collapse. */
export function normalizeUrl(href: string): string {
  const url = new URL(href);
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.slice(0, -1);
  return url.href;
}

/** `https://github.com/o/r/blob/ref/path` → `https://raw.githubusercontent.com/o/r/ref/path`. */
export function rawGithubUrl(href: string): string {
  const url = new URL(href);
  if (url.hostname !== 'github.com' || !url.pathname.includes('/blob/')) return href;
  url.hostname = 'raw.githubusercontent.com';
  url.pathname = url.pathname.replace(/^\/([^/]+\/[^/]+)\/blob\//, '/$1/');
  return url.href;
}

/**
 * The answer with `[n]` after each grounded segment (its `endIndex` counts UTF-8 bytes, as the API
 * gives it) and `Sources:` listing `[n] title (uri)` for each grounding chunk.
 */
export function withCitations(text: string, grounding: Grounding | undefined): string {
  const chunks = grounding?.groundingChunks ?? [];
  if (chunks.length === 0) return text;
  const inserts = (grounding?.groundingSupports ?? [])
    .filter((s) => typeof s.segment?.endIndex === 'number' && (s.groundingChunkIndices?.length ?? 0) > 0)
    .map((s) => ({ at: s.segment!.endIndex!, marker: s.groundingChunkIndices!.map((i) => `[${i + 1}]`).join('') }))
    .sort((a, b) => b.at - a.at);
  const encoder = new TextEncoder();
  let bytes = encoder.encode(text);
  for (const { at, marker } of inserts) {
    const cut = Math.min(Math.max(at, 0), bytes.length);
    const mark = encoder.encode(marker);
    const joined = new Uint8Array(bytes.length + mark.length);
    joined.set(bytes.subarray(0, cut));
    joined.set(mark, cut);
    joined.set(bytes.subarray(cut), cut + mark.length);
    bytes = joined;
  }
  const sources = chunks.map((c, i) => `[${i + 1}] ${c.web?.title || 'Untitled'} (${c.web?.uri || 'no URI'})`);
  return `${new TextDecoder().decode(bytes)}\n\nSources:\n${sources.join('\n')}`;
}

/** Text safe inside the XML-like tags of the web tools' requests. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** At most `max` characters, with a note when cut. */
export function capText(text: string, max: number): string {
  const note = '\n\n... [content truncated: size limit] ...';
  return text.length <= max ? text : text.slice(0, Math.max(0, max - note.length)) + note;
}
