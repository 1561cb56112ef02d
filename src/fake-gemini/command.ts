import { FakeGeminiServer } from './server';

export interface FakeGeminiCommandOptions {
  scriptPath: string;
  port?: number;
  nonStrict?: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Stops the server like SIGINT/SIGTERM do; lets callers other than a terminal end the run. */
  signal?: AbortSignal;
}

/**
 * `durable-agent fake-gemini --script FILE [--port N] [--non-strict]`: serves the script on
 * 127.0.0.1, prints the base URL alone on stdout, and on SIGINT/SIGTERM prints the report to
 * stderr. Resolves with 0 when every line was consumed and nothing was unexpected, else 1.
 */
export async function runFakeGeminiCommand(options: FakeGeminiCommandOptions): Promise<number> {
  const { stdout, stderr } = options;
  let server: FakeGeminiServer;
  try {
    server = await FakeGeminiServer.start({
      script: { path: options.scriptPath },
      strict: !options.nonStrict,
      port: options.port ?? 0,
    });
  } catch (err) {
    stderr.write(`fake-gemini: ${(err as Error).message}\n`);
    return 1;
  }
  stdout.write(`${server.url}\n`);
  await untilStopped(options.signal);
  await server.close();
  stderr.write(`${server.report()}\n`);
  return server.unexpected.length === 0 && server.leftovers().length === 0 ? 0 : 1;
}

function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop).once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}
