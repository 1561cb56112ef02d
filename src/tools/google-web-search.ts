import { z } from 'zod';
import { fenceUntrusted } from '../core/untrusted';
import { ToolError, type ActivityTool } from './types';
import { withCitations } from './web-text';

const schema = z.object({
  query: z
    .string()
    .refine((query) => query.trim() !== '', 'must not be empty')
    .describe('The search query.'),
});

/**
 * Gemini CLI's `google_web_search`: one `generateContent` call grounded on Google Search, whose
 * answer comes back with `[n]` citation markers and the list of its sources. Read-only: it runs
 * without asking in every mode but plan's refusals.
 */
export const googleWebSearchTool: ActivityTool<typeof schema> = {
  name: 'google_web_search',
  kind: 'search',
  reach: 'network',
  // One grounded request: the query; the search results are the API's own.
  modelRequests: { calls: 1, contentChars: 0 },
  description:
    'Searches the web with Google Search (through the Gemini API) and answers from the results, citing ' +
    'its sources. Use it for current information, documentation or facts not in the workspace.',
  parameters: schema,
  async execute(args, deps) {
    if (!deps.web) throw new ToolError('web_search_failed', 'Web search is not available on this worker.');
    const answer = await deps.web.ask({ text: args.query, grounding: 'googleSearch' }).catch((err: unknown) => {
      if (!(err instanceof ToolError)) throw err;
      throw new ToolError('web_search_failed', `Web search for "${args.query}" failed: ${err.message}`);
    });
    if (answer.text.trim() === '') {
      return {
        ok: true,
        output: `No search results or information found for "${args.query}".`,
        display: 'Nothing found',
      };
    }
    const found = withCitations(answer.text, answer.grounding);
    const output = `Web search results for "${args.query}":\n\n${fenceUntrusted('web', found)}`;
    return { ok: true, output, display: `Search results for "${args.query}"` };
  },
};
