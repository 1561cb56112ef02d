import { ConfigError } from '../config/errors';

/**
 * Where this process serves Prometheus metrics (`worker --metrics HOST:PORT` or `DURABLE_AGENT_METRICS`),
 * set before Temporal's runtime is installed: the runtime's one Prometheus exporter serves both the SDK's
 * metrics (which it prefixes with `temporal_`) and ours (`durable_agent_`, named in full; the SDK leaves
 * metrics made with its meters unprefixed).
 */
let bindAddress: string | undefined;

/** Validates `HOST:PORT` (a host name, an IPv4 address or a bracketed IPv6 one; port 1–65535). */
export function parseMetricsAddress(value: string, source: string): string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535)
    throw new ConfigError('environment', `${source} must be HOST:PORT (for example 127.0.0.1:9464), not "${value}"`);
  return `${match[1]}:${port}`;
}

/** Serve metrics at `address` from the next runtime install on (the flag wins over the environment). */
export function serveMetricsAt(flag: string | undefined, fromEnv: string | undefined): void {
  if (flag !== undefined) bindAddress = parseMetricsAddress(flag, '--metrics');
  else if (fromEnv) bindAddress = parseMetricsAddress(fromEnv, 'DURABLE_AGENT_METRICS');
}

/** The runtime's metrics exporter, when one was asked for. */
export function metricsTelemetry(): { metrics?: { prometheus: { bindAddress: string } } } {
  return bindAddress ? { metrics: { prometheus: { bindAddress } } } : {};
}
