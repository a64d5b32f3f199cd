// One way to say what a zod parse refused: every issue with its field path (`spec.containers[0].name`),
// so an error message names what and where. Used by every boundary that parses with zod.
import type { z } from 'zod';

/** `a.b[0].c`; `(root)` for an issue about the value itself. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
}

// zod's default wording for a wrong or missing type; other messages (ours, zod's for ranges) pass through as they are
const TYPE_MESSAGE = /^Invalid input: expected (\w+), received (\w+)$/;
const article = (word: string): string => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/**
 * `path: message` in the API server's terms: a missing field `is required` (kube-apiserver's "Required value"),
 * a wrong type `must be a number, not a string`; anything else as its schema words it.
 */
function describeIssue(at: string, issue: z.core.$ZodIssue): string {
  // A custom issue marked `sentence` reads as one (`spec.x is not implemented by kraftsman`: nodeclass-fields.ts).
  if (issue.code === 'custom' && (issue.params as { sentence?: unknown } | undefined)?.sentence)
    return `${at} ${issue.message}`;
  const m = issue.code === 'invalid_type' ? TYPE_MESSAGE.exec(issue.message) : null;
  if (!m) return `${at}: ${issue.message}`;
  const [, expected, received] = m as unknown as [string, string, string];
  if (received === 'undefined') return `${at} is required`;
  return `${at}: must be ${article(expected)}, not ${received === 'null' ? 'null' : article(received)}`;
}

/** Every issue as `path: message`, joined by `; `; `where` (e.g. `putVerdicts.verdicts`) prefixes each path. */
export function formatZodIssues(error: z.ZodError, where?: string): string {
  if (error.issues.length === 0) return where ? `${where}: invalid` : 'invalid';
  return error.issues
    .map((issue) => {
      const path = formatIssuePath(issue.path);
      const at = !where
        ? path
        : issue.path.length === 0
          ? where
          : `${where}${path.startsWith('[') ? '' : '.'}${path}`;
      return describeIssue(at, issue);
    })
    .join('; ');
}
