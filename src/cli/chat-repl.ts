import * as readline from 'node:readline';
import { cancelPrompt, failureText } from '../client';
import { CHAT_HELP, parseChatLine, type ChatLine } from '../client/chat-commands';
import {
  closeChatSession,
  followChatPrompt,
  printSessionStatus,
  runChatCommand,
  sendChatMessage,
  type ChatSession,
} from './chat-session';
import { chatTravel } from './chat-travel';
import { selfCommand } from '../runtime/self-command';

/** How a chat ended: left normally, or by Ctrl-C. */
export type ChatEnd = 'left' | 'interrupted';

/**
 * The line loop of `chat`. Lines are handled one at a time, in order; prompts are followed one at a
 * time, in the order they were sent, while input stays open (a line typed meanwhile is queued as the
 * next message, `/steer` goes to the running prompt). On a terminal the input is handed to the
 * approval menu while a call awaits approval. At end of input the chat leaves once its prompts end.
 */
export class ChatRepl {
  private readonly follow: string[] = [];
  private lines: Promise<void> = Promise.resolve();
  private unhandled = 0;
  private rl?: readline.Interface;
  private suspended = false;
  private current?: AbortController;
  private interrupts = 0;
  private endOfInput = false;
  private closing = false;
  private left?: (end: ChatEnd) => void;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly s: ChatSession,
    private readonly tty: boolean,
  ) {}

  /** Runs until the user leaves; `pending` are prompts to follow first (a resumed session's). */
  run(pending: string[]): Promise<ChatEnd> {
    const done = new Promise<ChatEnd>((resolve) => (this.left = resolve));
    const onSigint = () => this.interrupt();
    process.on('SIGINT', onSigint);
    this.openInput();
    pending.forEach((id) => this.enqueue(id));
    if (pending.length === 0) this.showPrompt();
    return done.finally(() => process.removeListener('SIGINT', onSigint));
  }

  private get busy(): boolean {
    return this.follow.length > 0;
  }

  private openInput(): void {
    const rl = readline.createInterface({
      input: process.stdin,
      output: this.tty ? process.stdout : undefined,
      terminal: this.tty,
    });
    rl.setPrompt('> ');
    rl.on('line', (line) => {
      this.unhandled += 1;
      this.lines = this.lines
        .then(() => this.handle(parseChatLine(line)))
        .finally(() => {
          this.unhandled -= 1;
          this.leaveIfDone();
        });
    });
    // In raw mode Ctrl-C reaches readline, not the process.
    rl.on('SIGINT', () => this.interrupt());
    rl.on('close', () => {
      if (this.rl !== rl) return;
      this.rl = undefined;
      this.endOfInput = true;
      if (this.tty && this.busy)
        this.s.io.stderr.write('\n(leaving once the running prompt ends; Ctrl-C to leave now)\n');
      this.leaveIfDone();
    });
    this.rl = rl;
  }

  private async handle(line: ChatLine): Promise<void> {
    const { io } = this.s;
    try {
      if (line.kind === 'bad') io.stderr.write(`${line.message}\n`);
      else if (line.kind === 'help') io.stderr.write(`${CHAT_HELP}\n`);
      else if (line.kind === 'quit') return this.leave('left');
      else if (line.kind === 'status') await printSessionStatus(this.s);
      else if (line.kind === 'close') await this.close();
      else if (line.kind === 'clear' || line.kind === 'compress') await runChatCommand(this.s, line.kind, this.idle());
      else if (line.kind === 'rewind' || line.kind === 'restore') await chatTravel(this.s, line, this.busy);
      else if (line.kind === 'steer' && this.busy)
        io.stderr.write(`(steering ${await sendChatMessage(this.s, line.text, true)})\n`);
      else if (this.closing) io.stderr.write(`session ${this.s.id} is closed: it takes no more messages\n`);
      else if (line.kind === 'steer' || line.kind === 'message') await this.send(line.text, line.kind === 'steer');
    } catch (err) {
      io.stderr.write(`durable-agent: ${failureText(err)}\n`);
    }
    if (!this.busy) this.showPrompt();
  }

  private async send(text: string, steered: boolean): Promise<void> {
    const id = await sendChatMessage(this.s, text);
    if (steered) this.s.io.stderr.write(`(nothing is running: sent as the next message, ${id})\n`);
    else if (this.busy) this.s.io.stderr.write(`(queued as ${id}; it runs after the current prompt)\n`);
    this.enqueue(id);
  }

  private async close(): Promise<void> {
    if (this.s.defaults) {
      this.s.io.stderr.write(`session ${this.s.id} was never started; nothing to close\n`);
      return this.leave('left');
    }
    await closeChatSession(this.s);
    this.closing = true;
    this.s.io.stderr.write(
      this.busy
        ? `session ${this.s.id} closed: leaving once its queued messages have run\n`
        : `session ${this.s.id} closed\n`,
    );
    this.leaveIfDone();
  }

  private enqueue(promptId: string): void {
    this.follow.push(promptId);
    if (this.follow.length === 1) void this.drain();
  }

  /** Follows the queued prompts, in order, until none is left. */
  private async drain(): Promise<void> {
    while (this.follow.length > 0) {
      this.current = new AbortController();
      try {
        await followChatPrompt(this.s, this.follow[0], this.current.signal, {
          suspend: () => this.suspendInput(),
          resume: () => this.resumeInput(),
        });
      } catch (err) {
        this.s.io.stderr.write(`durable-agent: ${(err as Error).message}\n`);
      }
      if (this.current.signal.aborted) return;
      this.follow.shift();
      this.interrupts = 0;
    }
    this.current = undefined;
    this.idleWaiters.splice(0).forEach((resolve) => resolve());
    this.leaveIfDone();
    this.showPrompt();
  }

  /** Ctrl-C: the first one while a prompt runs cancels it; otherwise leave. */
  private interrupt(): void {
    const running = this.follow[0];
    if (!running || this.interrupts++ > 0) return this.leave('interrupted');
    this.s.io.stderr.write(`\n(cancelling ${running}; Ctrl-C again to leave)\n`);
    void cancelPrompt(this.s.client, running).catch((err) =>
      this.s.io.stderr.write(`could not cancel ${running}: ${(err as Error).message}\n`),
    );
  }

  private suspendInput(): void {
    if (!this.tty || !this.rl) return;
    this.suspended = true;
    const rl = this.rl;
    this.rl = undefined;
    rl.close();
  }

  private resumeInput(): void {
    if (!this.suspended || this.endOfInput) return;
    this.suspended = false;
    this.openInput();
  }

  /** Resolves once every prompt this chat follows has ended (a command that needs an idle session waits). */
  private idle(): Promise<void> {
    return this.busy ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  private showPrompt(): void {
    if (this.tty && !this.busy && this.rl) this.rl.prompt();
  }

  private leaveIfDone(): void {
    if (!this.busy && this.unhandled === 0 && (this.endOfInput || this.closing)) this.leave('left');
  }

  private leave(end: ChatEnd): void {
    if (!this.left) return;
    const resolve = this.left;
    this.left = undefined;
    this.current?.abort();
    if (this.busy && end === 'left')
      this.s.io.stderr.write(
        `(${this.follow[0]} goes on in the session; \`${selfCommand()} chat ${this.s.id}\` follows it again)\n`,
      );
    const rl = this.rl;
    this.rl = undefined;
    rl?.close();
    resolve(end);
  }
}
