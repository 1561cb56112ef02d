import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { FakeGeminiServer, functionCallResponse, textResponse } from '../../src/fake-gemini';
import type { PromptResult } from '../../src/workflows/api';
import { closeTestEnv, getTestEnv } from '../helpers/temporal-env';
import { exited, spawnWorker } from '../helpers/processes';

/** One OTLP/HTTP JSON request's spans, flattened: name, service and the ids that link them. */
interface Span {
  name: string;
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

let collector: http.Server;
let collectorUrl = '';
const spans: Span[] = [];
let requests = 0;
let fake: FakeGeminiServer | undefined;

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests += 1;
      if (req.method === 'POST' && req.url === '/v1/traces') spans.push(...readSpans(body));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => collector.close(resolve));
  await closeTestEnv();
});

/**
 * A worker started with the standard OTEL_ variables pointing at a loopback collector sends the spans of a
 * prompt's workflow and of its activities (model calls, the tool), one trace, activities under the workflow.
 */
test('OTEL_EXPORTER_OTLP_ENDPOINT traces the prompt workflow and its activities', async () => {
  // A batch delay far beyond the test: the spans arrive because the stopping worker flushes them.
  const { result, worker } = await runPrompt('traced', {
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_BSP_SCHEDULE_DELAY: '600000',
    OTEL_SERVICE_NAME: 'durable-agent-test',
  });
  expect(result.response).toBe('Done.');
  worker.kill('SIGTERM');
  await exited(worker);
  const names = spans.map((s) => s.name);
  for (const name of ['RunWorkflow:agentPromptWorkflow', 'RunActivity:callModel', 'RunActivity:runTool'])
    expect(names).toContain(name);
  const workflow = spans.find((s) => s.name === 'RunWorkflow:agentPromptWorkflow')!;
  const tool = spans.find((s) => s.name === 'RunActivity:runTool')!;
  expect(workflow.service).toBe('durable-agent-test');
  // One trace: the tool's span is a child of the workflow's StartActivity span, itself under the workflow.
  expect(tool.traceId).toBe(workflow.traceId);
  const start = spans.find((s) => s.spanId === tool.parentSpanId);
  expect(start?.name).toBe('StartActivity:runTool');
  expect(start?.parentSpanId).toBe(workflow.spanId);
}, 90_000);

/**
 * Tracing is off unless asked for: an endpoint that is not a URL is a warning line, the prompt runs, and
 * nothing reaches the collector (named by the general endpoint, which the bad traces endpoint overrides).
 */
test('a bad OTEL_ endpoint is a warning; the prompt runs and no span is sent', async () => {
  const before = requests;
  const { result, worker } = await runPrompt('untraced', {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318',
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_BSP_SCHEDULE_DELAY: '50',
  });
  worker.kill('SIGTERM');
  await exited(worker);
  expect(result.response).toBe('Done.');
  expect(worker.output()).toContain('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT \\"collector:4318\\" is not an http(s) URL');
  expect(requests).toBe(before);
}, 90_000);

/** A worker process with `otel` variables runs a scripted prompt with one shell tool call. */
async function runPrompt(name: string, otel: Record<string, string>) {
  const env = await getTestEnv();
  const home = fs.mkdtempSync(path.join(env.tmpDir, `${name}-home-`));
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(env.tmpDir, `${name}-ws-`)));
  await fake?.close();
  fake = await FakeGeminiServer.start({
    script: [functionCallResponse({ name: 'run_shell_command', args: { command: 'echo hi' } }), textResponse('Done.')],
  });
  const taskQueue = env.uniqueTaskQueue(name);
  const worker = spawnWorker({
    ...otel,
    TEMPORAL_ADDRESS: env.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    GOOGLE_GEMINI_BASE_URL: fake.url,
    DURABLE_AGENT_HOME: home,
  });
  const input = { prompt: 'run it', workspace, model: 'gemini-test', approvalMode: 'yolo', maxTurns: 10 };
  const handle = await env.client.workflow.start('agentPromptWorkflow', {
    taskQueue,
    workflowId: `${name}-${Date.now()}`,
    args: [input],
  });
  const result = (await handle.result()) as PromptResult;
  return { result, worker };
}

function readSpans(body: string): Span[] {
  const out: Span[] = [];
  const json = JSON.parse(body) as {
    resourceSpans?: {
      resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
      scopeSpans?: { spans?: Omit<Span, 'service'>[] }[];
    }[];
  };
  for (const rs of json.resourceSpans ?? []) {
    const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({ name: s.name, service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId });
  }
  return out;
}
