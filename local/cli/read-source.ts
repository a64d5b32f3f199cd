// Reads one input (a file, a FIFO, a device or standard input) with its size bound checked before and while
// reading, so `-f /dev/zero` or an endless pipe stops at the cap instead of exhausting memory (docs/input-bounds.md).
import { open, stat } from 'node:fs/promises';
import { InputError } from './errors.ts';

/** The largest input read, in bytes (a `kubectl get -o json | jq -c` of a 1,000-node cluster is ~100 MB). */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;
const CHUNK = 1024 * 1024;

const mib = (n: number): string => `${n / (1024 * 1024)} MiB`;

/**
 * Accumulates bytes, refusing NUL bytes (no YAML or JSON text holds one) and more than the cap. Bytes stay in
 * Buffers (outside the JavaScript heap) until the end, so refusing an endless stream never fills the heap.
 */
class BoundedBytes {
  private readonly parts: Buffer[] = [];
  private size = 0;
  constructor(private readonly source: string) {}

  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_INPUT_BYTES)
      throw new InputError(`${this.source}: larger than ${mib(MAX_INPUT_BYTES)} (the input size limit)`);
    const nul = chunk.indexOf(0);
    if (nul !== -1)
      throw new InputError(
        `${this.source}: binary data (a NUL byte at offset ${this.size - chunk.length + nul}); expected YAML or JSON text`,
      );
    this.parts.push(chunk);
  }

  text(): string {
    const text = Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts.length = 0;
    // a UTF-8 byte-order mark is not content (YAML 1.2 §5.2 allows it; JSON.parse does not)
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

async function readStream(stream: NodeJS.ReadableStream, source: string): Promise<string> {
  const acc = new BoundedBytes(source);
  for await (const chunk of stream) acc.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return acc.text();
}

function cannotRead(file: string, e: unknown): InputError {
  const code = e instanceof Error && 'code' in e ? String(e.code) : undefined;
  return new InputError(`${file}: cannot read file${code ? ` (${code})` : ''}`, { cause: e });
}

/** Reads a path: a regular file's size is checked before a byte is read; anything else is read up to the cap. */
async function readPath(file: string): Promise<string> {
  const info = await stat(file).catch((e: unknown) => {
    throw cannotRead(file, e);
  });
  if (info.isDirectory()) throw new InputError(`${file}: is a directory, not a file`);
  if (info.isFile() && info.size > MAX_INPUT_BYTES)
    throw new InputError(
      `${file}: ${info.size} bytes is larger than ${mib(MAX_INPUT_BYTES)} (the input size limit)`,
    );
  const handle = await open(file, 'r').catch((e: unknown) => {
    throw cannotRead(file, e);
  });
  try {
    const acc = new BoundedBytes(file);
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, CHUNK, null).catch((e: unknown) => {
        throw cannotRead(file, e);
      });
      if (bytesRead === 0) break;
      acc.push(Buffer.from(buf.subarray(0, bytesRead))); // a copy of exactly what was read (pipes give 64 KiB)
    }
    return acc.text();
  } finally {
    await handle.close();
  }
}

/** The text of `file` (`-` is standard input), bounded by MAX_INPUT_BYTES. */
export function readSource(file: string, stdin: NodeJS.ReadableStream): Promise<string> {
  return file === '-' ? readStream(stdin, 'standard input') : readPath(file);
}
