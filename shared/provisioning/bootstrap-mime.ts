// MIME multipart/mixed user data (RFC 2046) as cloud-init and nodeadm read it: a user's document is split into
// its parts, each kept with its own headers, and a merged document is written with a boundary no part contains.

export interface MimePart {
  /** The part's headers in order, as written (Content-Type first when kraftsman writes one). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

/** Karpenter's test for MIME user data (nodeadm.go parseUserData): it starts with a MIME or Content-Type header. */
export const isMime = (text: string): boolean => /^(MIME-Version|Content-Type):/i.test(text.trimStart());

function parseHeaders(block: string): [string, string][] {
  // Continuation lines (starting with white space) belong to the header before them (RFC 5322 folding).
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  return unfolded
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .map((line): [string, string] => {
      const i = line.indexOf(':');
      if (i <= 0) throw new Error(`malformed MIME header line ${JSON.stringify(line)}`);
      return [line.slice(0, i).trim(), line.slice(i + 1).trim()];
    });
}

const header = (hs: readonly (readonly [string, string])[], name: string): string | undefined =>
  hs.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

function splitHead(text: string): { head: string; body: string } {
  const m = /\r?\n\r?\n/.exec(text);
  return m
    ? { head: text.slice(0, m.index), body: text.slice(m.index + m[0].length) }
    : { head: text, body: '' };
}

/** The parts of a multipart/mixed document; an error names `where` and what is wrong. */
export function parseMime(text: string, where: string): MimePart[] {
  const fail = (why: string): never => {
    throw new Error(`${where}: not a usable MIME multipart document: ${why}`);
  };
  const { head, body } = splitHead(text.trimStart());
  const type = header(parseHeaders(head), 'Content-Type') ?? fail('no Content-Type header');
  if (!/^multipart\/mixed\b/i.test(type)) fail(`Content-Type ${type} is not multipart/mixed`);
  const boundary = /boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(type);
  const b = boundary?.[1] ?? boundary?.[2] ?? fail('Content-Type names no boundary');
  const lines = body.split(/\r?\n/);
  const parts: MimePart[] = [];
  let current: string[] | undefined;
  let closed = false;
  for (const line of lines) {
    if (line.trimEnd() === `--${b}--`) {
      if (current) parts.push(part(current.join('\n')));
      closed = true;
      break;
    }
    if (line.trimEnd() === `--${b}`) {
      if (current) parts.push(part(current.join('\n')));
      current = [];
    } else current?.push(line);
  }
  if (!closed) fail(`no closing --${b}-- line`);
  if (parts.length === 0) fail('no parts');
  return parts;
}

function part(text: string): MimePart {
  const { head, body } = splitHead(text);
  const headers = parseHeaders(head);
  return { headers, body: body.replace(/\n$/, '') };
}

const BOUNDARY = 'KRAFTSMAN-BOUNDARY';

/** One multipart/mixed document of the parts, in order; the boundary is one no part's text contains. */
export function serializeMime(parts: readonly MimePart[]): string {
  let boundary = BOUNDARY;
  for (let i = 1; parts.some((p) => p.body.includes(`--${boundary}`)); i++) boundary = `${BOUNDARY}-${i}`;
  const out = ['MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${boundary}"`, ''];
  for (const p of parts) {
    out.push(`--${boundary}`, ...p.headers.map(([k, v]) => `${k}: ${v}`), '', p.body.replace(/\n$/, ''), '');
  }
  out.push(`--${boundary}--`, '');
  return out.join('\n');
}

export const shellPart = (body: string): MimePart => ({
  headers: [['Content-Type', 'text/x-shellscript; charset="us-ascii"']],
  body,
});
