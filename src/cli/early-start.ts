import { loadConfig, type Config } from '../config';
import { startServerEarly } from '../runtime/embedded-server';
import { geminiStyle } from './bare-command';

/**
 * A cold `run` (no server answering, the CLI installed) starts the embedded server before the CLI
 * loads its modules: the server's own start (a second or more, another process) then overlaps the
 * CLI's loading, its configuration reads and the worker's loading instead of following them. Only
 * the plain attached `run` starts early; a bad configuration is left for the ordinary start, which
 * says it. A server started early but never taken (the command failed on its input) goes with this
 * process, as any server this process starts. Resolves once the server process is started (or the
 * early start declined): the caller loads the CLI's modules only then, since their loading holds
 * the event loop that the checks before the start need.
 */
export async function startEarly(argv: string[]): Promise<void> {
  const args = geminiStyle(argv).slice(2);
  if (args[0] !== 'run' || args.some((a) => ['--detach', '-h', '--help'].includes(a))) return;
  let config: Config;
  try {
    config = loadConfig();
  } catch {
    return;
  }
  await startServerEarly(config);
}
