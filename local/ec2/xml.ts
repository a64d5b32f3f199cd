// EC2 query protocol output: a JS value rendered as the XML the SDK parses (lists as <item>s).
export type XmlValue =
  | string
  | number
  | boolean
  | Date
  | undefined
  | null
  | readonly XmlValue[]
  | { readonly [k: string]: XmlValue };

const NS = 'http://ec2.amazonaws.com/doc/2016-11-15/';

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function render(value: XmlValue): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => `<item>${render(v as XmlValue)}</item>`).join('');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, XmlValue>)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `<${k}>${render(v)}</${k}>`)
      .join('');
  }
  return escape(String(value));
}

export function responseXml(action: string, requestId: string, body: Record<string, XmlValue>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${NS}"><requestId>${requestId}</requestId>${render(body)}</${action}Response>`;
}

export function errorXml(code: string, message: string, requestId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${escape(code)}</Code><Message>${escape(message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`;
}

export function tagSet(tags: Readonly<Record<string, string>>): XmlValue {
  return Object.entries(tags).map(([key, value]) => ({ key, value }));
}
