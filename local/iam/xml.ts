// IAM query protocol output: a JS value rendered as the XML the SDK parses — `<Action>Response>` wrapping
// `<Action>Result>` and `ResponseMetadata`, lists as `<member>`s, errors as `<ErrorResponse>` (IAM API Reference,
// "Common Errors" and each action's "Response Elements").
export type IamXml =
  string | number | boolean | Date | undefined | null | readonly IamXml[] | { readonly [k: string]: IamXml };

const NS = 'https://iam.amazonaws.com/doc/2010-05-08/';

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function render(value: IamXml): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => `<member>${render(v as IamXml)}</member>`).join('');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, IamXml>)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `<${k}>${render(v)}</${k}>`)
      .join('');
  return escape(String(value));
}

export function responseXml(action: string, requestId: string, result: Record<string, IamXml>): string {
  const body = Object.keys(result).length > 0 ? `<${action}Result>${render(result)}</${action}Result>` : '';
  return `<${action}Response xmlns="${NS}">${body}<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`;
}

export function errorXml(code: string, message: string, requestId: string): string {
  return `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${escape(code)}</Code><Message>${escape(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
}
