// One way to say what a zod parse refused: every issue with its field path (`spec.containers[0].name`),
// so an error message names what and where. Used by every boundary that parses with zod.
import type { z } from 'zod';

/** `a.b[0].c`; `(root)` for an issue about the value itself. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
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
      // A custom issue marked `sentence` reads as one (`spec.x is not implemented by kraftsman`: nodeclass-fields.ts).
      const sentence =
        issue.code === 'custom' && (issue.params as { sentence?: unknown } | undefined)?.sentence;
      return sentence ? `${at} ${issue.message}` : `${at}: ${issue.message}`;
    })
    .join('; ');
}
