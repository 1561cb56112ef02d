import type { WorkerOptions } from '@temporalio/worker';
import type { OtelEnv } from '../config/env';

/**
 * OpenTelemetry tracing of workflows and activities, off unless the standard `OTEL_` variables ask for it:
 * `OTEL_TRACES_EXPORTER=otlp`, or (that variable unset) `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` set; `OTEL_SDK_DISABLED=true` and `OTEL_TRACES_EXPORTER=none` keep it off.
 * Spans go as OTLP/HTTP JSON to the traces endpoint. A setting we cannot honour is a warning, never a
 * stopped worker: an unusable one leaves tracing off, prompts run either way.
 */
export interface TracingSetting {
  /** Where spans are posted; absent: tracing is off. */
  endpoint?: string;
  warnings: string[];
}

/** The file name of the prebuilt bundle that also holds the SDK's workflow tracing interceptors. */
export const TRACED_BUNDLE = 'workflow-bundle-otel.js';

/** The SDK's module of workflow interceptors (inbound, outbound, internals) that traced workflows load. */
export const WORKFLOW_TRACING_MODULE = '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors';

export function tracingSetting(env: OtelEnv): TracingSetting {
  const warnings: string[] = [];
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { warnings };
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = exporters.filter((name) => name !== 'otlp' && name !== 'none');
  const otlp = exporters.includes('otlp');
  if (unknown.length > 0)
    warnings.push(
      `OTEL_TRACES_EXPORTER "${unknown.join(',')}" is not supported (only "otlp" or "none"); ` +
        (otlp ? 'exporting with otlp only' : 'tracing is off'),
    );
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const baseUrl = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (exporters.length > 0 ? !otlp : !tracesUrl && !baseUrl) return { warnings };
  const [name, endpoint] = tracesUrl
    ? ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesUrl]
    : baseUrl
      ? ['OTEL_EXPORTER_OTLP_ENDPOINT', `${baseUrl.replace(/\/+$/, '')}/v1/traces`]
      : ['the default endpoint', 'http://localhost:4318/v1/traces'];
  if (!isHttpUrl(endpoint)) {
    warnings.push(`${name} "${tracesUrl || baseUrl}" is not an http(s) URL; tracing is off`);
    return { warnings };
  }
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim();
  if (protocol && protocol !== 'http/json')
    warnings.push(`OTLP protocol "${protocol}" is not supported; spans are sent as http/json`);
  return { endpoint, warnings };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The traced bundle's span sink for replays (`replay-check`): a replay never calls it (the SDK's exporter
 * sink is not called during replay), but the SDK logs an error for every call to a sink it does not know.
 */
export const REPLAY_SINKS = { exporter: { export: { fn: (): void => undefined } } };

/** What a traced worker adds to its options, and the flush to run once it has stopped. */
export interface WorkerTracing {
  interceptors: NonNullable<WorkerOptions['interceptors']>;
  sinks: NonNullable<WorkerOptions['sinks']>;
  shutdown(): Promise<void>;
}

/**
 * The SDK's tracing for a worker posting to `endpoint`: the activity interceptors, the workflow
 * interceptors module (used when bundling from source; a prebuilt bundle must already hold it), and the
 * sink through which workflow spans leave the sandbox (not called on replay, so no span is sent twice).
 * The OpenTelemetry packages load only here, so an untraced worker pays nothing for them.
 */
export async function createWorkerTracing(endpoint: string): Promise<WorkerTracing> {
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { Resource, envDetectorSync } = await import('@opentelemetry/resources');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const otel = await import('@temporalio/interceptors-opentelemetry');
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (read by the env detector) win over our default name.
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': 'durable-agent-worker' }))
    .merge(envDetectorSync.detect());
  const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  // Global W3C propagation and an active context: an activity's span finds its parent (the workflow's
  // StartActivity span) in the activity's headers, and the SDK's interceptor makes it the active context.
  provider.register({ contextManager: new AsyncLocalStorageContextManager().enable() });
  const tracer = provider.getTracer('durable-agent');
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx, { tracer }),
          outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
      workflowModules: [require.resolve(WORKFLOW_TRACING_MODULE)],
    },
    sinks: { exporter: otel.makeWorkflowExporter(processor, resource) },
    shutdown: () => provider.shutdown(),
  };
}

/** The worker's tracing as the `OTEL_` variables set it, each warning logged once; undefined when off. */
export async function tracingFromEnv(env: OtelEnv): Promise<WorkerTracing | undefined> {
  const setting = tracingSetting(env);
  if (setting.warnings.length > 0 || setting.endpoint) {
    const { Runtime } = await import('@temporalio/worker');
    for (const warning of setting.warnings) Runtime.instance().logger.warn(`tracing: ${warning}`);
  }
  return setting.endpoint ? createWorkerTracing(setting.endpoint) : undefined;
}
