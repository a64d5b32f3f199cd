// Every zod issue of a proposal payload on one line, each with its path, so a bad event names what and where.
import type { z } from 'zod';

export function formatProposalIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}
