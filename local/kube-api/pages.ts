// LIST pagination of the emulator: continue tokens (the snapshot's resourceVersion and the last key
// returned), the 410 a compacted token gets, and the binary search that resumes a page after a key.
import { statusError } from './status.ts';

/** kube-apiserver's answer to a continue token whose snapshot etcd has compacted away. */
export const expiredContinue = () =>
  statusError(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
  );

export const encodeContinue = (rv: string, after: string): string =>
  Buffer.from(JSON.stringify({ rv, after })).toString('base64url');
export function decodeContinue(token: string): { rv: string; after: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString()) as {
      rv?: unknown;
      after?: unknown;
    };
    if (typeof parsed.rv === 'string' && typeof parsed.after === 'string')
      return { rv: parsed.rv, after: parsed.after };
  } catch {
    // fall through to the error below
  }
  throw statusError(400, 'BadRequest', 'continue key is not valid');
}

/** First index whose key sorts after `after`. */
export function lowerBound(keys: string[], after: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
