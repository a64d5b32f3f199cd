// Google credentials from workload identity federation: an external_account configuration that
// trusts the Lambda's AWS role (the AWS credentials in its environment sign the subject token).
// Service-account keys are refused outright: no key file exists anywhere in kraftsman.
import { ExternalAccountClient, type BaseExternalAccountClient } from 'google-auth-library';
import { z } from 'zod';
import { formatZodIssues } from '../../model/zod-issues.ts';

export const externalAccountSchema = z
  .object({
    type: z.literal('external_account'),
    audience: z
      .string()
      .regex(
        /^\/\/iam\.googleapis\.com\/projects\/\d+\/locations\/global\/workloadIdentityPools\/[^/]+\/providers\/[^/]+$/,
        'must name a workload identity pool provider (//iam.googleapis.com/projects/N/locations/global/workloadIdentityPools/P/providers/R)',
      ),
    subject_token_type: z.literal('urn:ietf:params:aws:token-type:aws4_request'),
    token_url: z.url().default('https://sts.googleapis.com/v1/token'),
    service_account_impersonation_url: z.url().optional(),
    credential_source: z.object({
      environment_id: z.string().regex(/^aws\d+$/, 'must be aws1'),
      region_url: z.url().optional(),
      url: z.url().optional(),
      regional_cred_verification_url: z.string().min(1),
      imdsv2_session_token_url: z.url().optional(),
    }),
  })
  .strict();
export type ExternalAccountConfig = z.infer<typeof externalAccountSchema>;

export class CredentialConfigError extends Error {
  override name = 'CredentialConfigError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Parses the configuration (a JSON string or object) and builds the federated client; no network. */
export function workloadIdentityClient(input: unknown): BaseExternalAccountClient {
  const raw: unknown = typeof input === 'string' ? JSON.parse(input) : input;
  if (
    raw &&
    typeof raw === 'object' &&
    ('private_key' in raw || (raw as { type?: unknown }).type === 'service_account')
  ) {
    throw new CredentialConfigError(
      'Google credentials: service-account keys are not accepted; configure workload identity federation (type external_account)',
    );
  }
  const parsed = externalAccountSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CredentialConfigError(`Google credentials config at ${formatZodIssues(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  const client = ExternalAccountClient.fromJSON({
    ...parsed.data,
    scopes: ['https://www.googleapis.com/auth/cloud-platform'],
  } as Parameters<typeof ExternalAccountClient.fromJSON>[0]);
  if (!client)
    throw new CredentialConfigError(
      'Google credentials: google-auth-library did not accept the external_account configuration',
    );
  return client;
}
