// One emulated standard SQS queue on an injected clock: retention counted from the first enqueue (kept when a
// message moves to the dead-letter queue, as SQS keeps it for standard queues), a visibility timeout per
// receive, a receive count, and the redrive policy: a message received maxReceiveCount times moves to the
// dead-letter queue on the next receive instead of being delivered (docs/deploy.md, "What to watch after").
import { createHash, randomUUID } from 'node:crypto';
import { invalidAttributeName, invalidAttributeValue, invalidHandle } from './errors.ts';

export interface QueueAttributes {
  readonly visibilityTimeoutS: number;
  readonly retentionS: number;
  readonly redrive?: { readonly deadLetterTargetArn: string; readonly maxReceiveCount: number };
}

export interface EmuMessage {
  readonly id: string;
  readonly body: string;
  readonly md5: string;
  /** The original enqueue time (ms): retention counts from it, in the dead-letter queue too. */
  readonly sentAt: number;
  firstReceivedAt?: number;
  receiveCount: number;
  visibleAt: number;
  /** The receipt handle of the latest receive: only it deletes the message. */
  handle?: string;
}

const RANGES = {
  VisibilityTimeout: [0, 43_200],
  MessageRetentionPeriod: [60, 1_209_600],
} as const;

function seconds(name: keyof typeof RANGES, value: string): number {
  const [min, max] = RANGES[name];
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw invalidAttributeValue(`Invalid value for the parameter ${name}: ${value} (${min}..${max})`);
  return n;
}

function redrivePolicy(value: string): QueueAttributes['redrive'] {
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    throw invalidAttributeValue(`Invalid value for the parameter RedrivePolicy: not JSON: ${value}`);
  }
  const r = raw as { deadLetterTargetArn?: unknown; maxReceiveCount?: unknown } | null;
  const count = Number(r?.maxReceiveCount);
  if (typeof r?.deadLetterTargetArn !== 'string' || !Number.isInteger(count) || count < 1 || count > 1000)
    throw invalidAttributeValue(
      `Invalid value for the parameter RedrivePolicy: needs deadLetterTargetArn and maxReceiveCount 1..1000, got ${value}`,
    );
  return { deadLetterTargetArn: r.deadLetterTargetArn, maxReceiveCount: count };
}

/** CreateQueue's Attributes map; names SQS does not know are refused, those it knows but we do not model too. */
export function parseAttributes(attrs: Readonly<Record<string, string>>): QueueAttributes {
  for (const name of Object.keys(attrs))
    if (
      !['VisibilityTimeout', 'MessageRetentionPeriod', 'RedrivePolicy', 'SqsManagedSseEnabled'].includes(name)
    )
      throw invalidAttributeName(name);
  const redrive = attrs.RedrivePolicy === undefined ? undefined : redrivePolicy(attrs.RedrivePolicy);
  return {
    visibilityTimeoutS: seconds('VisibilityTimeout', attrs.VisibilityTimeout ?? '30'),
    retentionS: seconds('MessageRetentionPeriod', attrs.MessageRetentionPeriod ?? '345600'),
    ...(redrive ? { redrive } : {}),
  };
}

export const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');

export class EmuQueue {
  private messages: EmuMessage[] = [];
  private readonly issued = new Set<string>();
  constructor(
    readonly name: string,
    readonly url: string,
    readonly arn: string,
    readonly attributes: QueueAttributes,
    readonly raw: Readonly<Record<string, string>>,
  ) {}

  send(body: string, now: number): EmuMessage {
    const m: EmuMessage = {
      id: randomUUID(),
      body,
      md5: md5(body),
      sentAt: now,
      receiveCount: 0,
      visibleAt: now,
    };
    this.messages.push(m);
    return m;
  }

  /** A message moved here by a redrive: same id, body, enqueue time and receive count, visible at once. */
  adopt(m: EmuMessage, now: number): void {
    const { handle: _handle, ...rest } = m;
    this.messages.push({ ...rest, visibleAt: now });
  }

  receive(
    max: number,
    visibilityS: number | undefined,
    now: number,
    dlq: (arn: string) => EmuQueue,
  ): EmuMessage[] {
    this.expire(now);
    const out: EmuMessage[] = [];
    for (const m of [...this.messages]) {
      if (out.length >= max) break;
      if (m.visibleAt > now) continue;
      const redrive = this.attributes.redrive;
      if (redrive && m.receiveCount >= redrive.maxReceiveCount) {
        this.messages = this.messages.filter((x) => x !== m);
        dlq(redrive.deadLetterTargetArn).adopt(m, now);
        continue;
      }
      m.receiveCount += 1;
      m.firstReceivedAt ??= now;
      m.visibleAt = now + (visibilityS ?? this.attributes.visibilityTimeoutS) * 1000;
      m.handle = `${this.name}:${m.id}:${randomUUID()}`;
      this.issued.add(m.handle);
      out.push(m);
    }
    return out;
  }

  /** The latest handle deletes; an older handle of this queue succeeds and deletes nothing, as SQS says. */
  delete(handle: string, now: number): void {
    if (!this.issued.has(handle)) throw invalidHandle(handle);
    this.expire(now);
    this.messages = this.messages.filter((m) => m.handle !== handle);
  }

  counts(now: number): { visible: number; inFlight: number } {
    this.expire(now);
    const visible = this.messages.filter((m) => m.visibleAt <= now).length;
    return { visible, inFlight: this.messages.length - visible };
  }

  /** Messages past the retention period are gone, received or not. */
  private expire(now: number): void {
    const limit = this.attributes.retentionS * 1000;
    this.messages = this.messages.filter((m) => now - m.sentAt < limit);
  }
}
