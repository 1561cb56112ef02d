/**
 * `node dist-bench/bench/history-breakdown.js [turns]`: where a turn's history bytes go. Runs one
 * prompt of the history benchmark and prints, per event of its second-to-last turn, the event type
 * and its encoded size, then the sizes of the payloads it carries. A tool for reading the history
 * figure of `npm run bench`, not part of the table.
 */
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import * as fs from 'node:fs';
import { openBenchEnv, openBenchServer } from './env';
import { openRig } from './rig';

const { EventType } = temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

function payloadSizes(event: HistoryEvent): string[] {
  const out: string[] = [];
  const walk = (value: unknown, where: string) => {
    if (!value || typeof value !== 'object') return;
    if (value instanceof Uint8Array) return;
    const record = value as Record<string, unknown>;
    if (record.data instanceof Uint8Array && record.metadata) {
      const text = Buffer.from(record.data).toString('utf8');
      out.push(
        `${where}: ${record.data.length} B ${process.env.FULL ? text : text.length > 160 ? `${text.slice(0, 160)}…` : text}`,
      );
      return;
    }
    for (const [key, inner] of Object.entries(record)) walk(inner, `${where}.${key}`);
  };
  walk(event, 'event');
  return out;
}

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? 4);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const env = await openBenchEnv(true);
  const server = await openBenchServer(env, 'breakdown');
  const rig = await openRig(env, server, 'breakdown', 1024);
  try {
    const { workflowId } = await rig.run(turns);
    const history = await server.client.workflow.getHandle(workflowId).fetchHistory();
    const events = history.events ?? [];
    for (const event of events) {
      const bytes = temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
      process.stdout.write(
        `${String(event.eventId).padStart(3)} ${EventType[event.eventType ?? 0]?.replace('EVENT_TYPE_', '')} ${bytes} B\n`,
      );
      for (const line of payloadSizes(event)) process.stdout.write(`      ${line}\n`);
      if (process.env.JSON)
        process.stdout.write(
          `${JSON.stringify(temporal.api.history.v1.HistoryEvent.toObject(event as temporal.api.history.v1.HistoryEvent, { longs: String, bytes: String }))}\n`,
        );
    }
    process.stdout.write(
      `total ${temporal.api.history.v1.History.encode(history).finish().length} B, ${events.length} events\n`,
    );
  } finally {
    await rig.close();
    await server.close();
    fs.rmSync(env.tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
