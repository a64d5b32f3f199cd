// `kraftsman catalog --cloud gcp`: application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud's, or
// the metadata server), the project of GOOGLE_CLOUD_PROJECT (else the credentials'), Google's endpoints or
// KRAFTSMAN_GCE_ENDPOINT (a local emulator on 127.0.0.1), then the adapter's catalog read.
import { GoogleAuth } from 'google-auth-library';
import { readGceCatalog } from '../../shared/adapters/gcp-compute/catalog-read.ts';
import type { InstanceTypeSpec } from '../../shared/model/catalog.ts';
import { InputError } from './errors.ts';

const LOCAL = /^http:\/\/(127\.0\.0\.1|localhost):(\d+)\/?$/;

export async function readGcpCatalog(region: string): Promise<InstanceTypeSpec[]> {
  const endpoint = process.env.KRAFTSMAN_GCE_ENDPOINT;
  const local = endpoint ? LOCAL.exec(endpoint) : undefined;
  if (endpoint && !local)
    throw new InputError(
      `KRAFTSMAN_GCE_ENDPOINT must be http://127.0.0.1:PORT (a local emulator), got "${endpoint}"`,
    );
  const auth = new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'] });
  const authClient = await auth.getClient();
  const project = process.env.GOOGLE_CLOUD_PROJECT || (await auth.getProjectId().catch(() => ''));
  if (!project) throw new InputError('catalog --cloud gcp needs a project: set GOOGLE_CLOUD_PROJECT');
  return readGceCatalog({
    authClient,
    project,
    region,
    ...(local
      ? { rest: { host: local[1] as string, port: Number(local[2]), protocol: 'http' as const } }
      : {}),
  });
}
