import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../config';
import { isServerReachable, startDevServer, type DevServer } from '../server/dev-server';
import { ensureTemporalCli, projectRoot } from '../server/temporal-cli';
import { cannotReachMessage, isOwnAddress, recordOwnAddress } from './own-server';
import { awaitLeftServer, leftServerRunning } from './left-server';
import { isLocalHost, splitAddress } from '../client/address';
import { inheritedEnvironment } from '../config/env';

export interface EmbedOptions {
  /** Start the dev server when none answers at this home's own address (the default). */
  embed?: boolean;
  /** Start it at the configured local address even if it is not yet this home's own (`server`). */
  claimAddress?: boolean;
  uiEnabled?: boolean;
  /** Install the Temporal CLI when none is found (the default); false: leave the server unstarted. */
  install?: boolean;
  /** Said as the server process starts (the caller loads what it needs meanwhile). */
  onStarting?: () => void;
  log(msg: string): void;
}

/**
 * Starts this home's embedded dev server (SQLite under the home) when nothing answers at the
 * configured address and that address is ours to serve; undefined when a server already answers.
 */
export async function ensureServer(config: Config, options: EmbedOptions): Promise<DevServer | undefined> {
  await awaitLeftServer(config.home);
  if (await isServerReachable(config.temporalAddress, 1000)) return undefined;
  const { host, port } = splitAddress(config.temporalAddress);
  const local = isLocalHost(host);
  if (options.embed === false || !local || (!options.claimAddress && !isOwnAddress(config))) {
    throw new TemporalUnreachableError(cannotReachMessage(config.temporalAddress, local));
  }
  const cliPath = await ensureTemporalCli({
    projectRoot: projectRoot(),
    explicitPath: config.temporalCliPath,
    searchPath: config.searchPath,
    env: inheritedEnvironment(),
    install: options.install,
    log: options.log,
    // Said on stderr whatever the log level: the first run would otherwise sit silent for a minute.
    progress: (msg) => process.stderr.write(`durable-agent: ${msg}\n`),
    showInstaller: !!process.stderr.isTTY,
    verifiedStamp: path.join(config.home, 'temporal', 'cli-verified.json'),
  });
  // Said every time: a prompt on this server is seen by no one else's Temporal.
  process.stderr.write(`durable-agent: starting the embedded Temporal dev server at ${config.temporalAddress}\n`);
  options.onStarting?.();
  const server = await startDevServer({
    cliPath,
    dbFile: databaseOf(config.home),
    ip: '127.0.0.1',
    port,
    headless: options.uiEnabled === false,
    uiPort: options.uiEnabled === false ? undefined : port + 1000,
    outputFile: path.join(config.home, 'temporal', 'server-output.log'),
    log: options.log,
  });
  recordOwnAddress(config.home, config.temporalAddress);
  return server;
}

/** A server start begun early: whether the server process was started, and the server once it serves. */
export interface EarlyStart {
  started: Promise<boolean>;
  server: Promise<DevServer | undefined>;
}

let early: (EarlyStart & { address: string; logs: string[] }) | undefined;

/**
 * Starts this home's server ahead of the caller's loading (the CLI's early start of a cold `run`):
 * only where it is sure to be wanted and safe, with the options an ordinary start would use. Anything
 * it cannot settle (an unreachable address not ours, no Temporal CLI yet) is left for the ordinary
 * start, which says it. Never a home's first server: one that goes with a command refused for its
 * input must not be the one creating the database; a previous run's server still shutting down is
 * waited out by the ordinary start, while the modules load. Resolves once the server process is
 * started (or the early start declined); `takeEarlyServer` hands the start over.
 */
export async function startServerEarly(config: Config): Promise<void> {
  if (!fs.existsSync(databaseOf(config.home)) || leftServerRunning(config.home)) return;
  const logs: string[] = [];
  let starting = false;
  let said: (started: boolean) => void = () => undefined;
  const started = new Promise<boolean>((resolve) => (said = resolve));
  const onStarting = () => {
    starting = true;
    said(true);
  };
  const options = { install: false, log: (msg: string) => void logs.push(msg), onStarting };
  // Failing before the server process starts: left to the ordinary start; after: that start's error.
  const server = ensureServer(config, options).catch((err) => {
    if (starting) throw err;
    return undefined;
  });
  void server.then(
    () => said(false),
    () => said(false),
  ); // a rejection here is the taker's (or goes with a command that failed first)
  early = { address: config.temporalAddress, started, server, logs };
  await started;
}

/** The start `startServerEarly` began at `address`, once; its log lines go to `log` when it settles. */
export function takeEarlyServer(address: string, log: (msg: string) => void): EarlyStart | undefined {
  const taken = early?.address === address ? early : undefined;
  early = undefined;
  if (!taken) return undefined;
  const server = taken.server.finally(() => taken.logs.forEach((line) => log(line)));
  return { started: taken.started, server };
}

function databaseOf(home: string): string {
  return path.join(home, 'temporal', 'dev.db');
}

export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
}
