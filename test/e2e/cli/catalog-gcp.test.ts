// `kraftsman catalog --cloud gcp --region R` through bin/kraftsman.mjs against the Compute Engine emulator (and its
// Cloud Billing stand-in on the same port, KRAFTSMAN_GCE_ENDPOINT), authenticated as a user would be: application
// default credentials from GOOGLE_APPLICATION_CREDENTIALS (workload identity federation, exchanged at a local STS
// stand-in). The region's zones come from regions.get; an unknown region and no credentials are exit 2.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startGceEmulator, type GceEmulator } from '../../../local/gce/server.ts';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { isolatedKraftsman } from './isolated-cli.ts';
import { startGoogleSts, type GoogleSts } from '../../infra/support/google-sts.ts';

const PROJECT = 'kraftsman-test';

const kraftsman = (args: string[], env: Record<string, string>) => isolatedKraftsman(args, () => env);

describe('kraftsman catalog --cloud gcp', () => {
  let emu: GceEmulator;
  let sts: GoogleSts;
  let env: Record<string, string>;
  beforeAll(async () => {
    emu = await startGceEmulator({ project: PROJECT, zones: ['us-central1-a', 'us-central1-b'] });
    sts = await startGoogleSts();
    const dir = mkdtempSync(join(tmpdir(), 'kraftsman-adc-'));
    writeFileSync(join(dir, 'subject-token'), 'a-subject-token');
    const adc = join(dir, 'adc.json');
    writeFileSync(
      adc,
      JSON.stringify({
        type: 'external_account',
        audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q',
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        token_url: `${sts.url}/v1/token`,
        credential_source: { file: join(dir, 'subject-token') },
      }),
    );
    env = {
      GOOGLE_APPLICATION_CREDENTIALS: adc,
      GOOGLE_CLOUD_PROJECT: PROJECT,
      KRAFTSMAN_GCE_ENDPOINT: `http://127.0.0.1:${emu.port}`,
    };
  });
  afterAll(async () => {
    await emu.close();
    await sts.close();
  });

  it("writes the region's machine types, N1 with attachable GPUs, zones and billing prices", async () => {
    const r = await kraftsman(['catalog', '--cloud', 'gcp', '--region', 'us-central1', '-o', 'yaml'], env);
    expect(r.code, r.stderr).toBe(0);
    const doc = catalogSchema.parse(parse(r.stdout));
    expect(doc.metadata?.name).toBe('gcp-us-central1');
    const byName = new Map(doc.instanceTypes.map((t) => [t.name, t]));
    const g2 = byName.get('g2-standard-4');
    expect(g2?.capacity).toMatchObject({ cpu: '4', memory: '16384Mi', 'nvidia.com/gpu': '1', pods: '110' });
    expect(g2?.labels?.['cloud.google.com/gke-accelerator']).toBe('nvidia-l4');
    expect(new Set(g2?.offerings.map((o) => o.zone))).toEqual(new Set(['us-central1-a', 'us-central1-b']));
    expect(g2?.offerings.every((o) => o.price > 0)).toBe(true);
    // A2 is only in the first zone; N1 takes attachable T4s (1, 2, 4)
    expect(byName.get('a2-highgpu-1g')?.offerings.map((o) => o.zone)).not.toContain('us-central1-b');
    expect(byName.get('n1-standard-8_nvidia-tesla-t4_2')?.capacity['nvidia.com/gpu']).toBe('2');
    // the STS exchange ran: the credentials were the user's ADC, not a token of ours
    expect(sts.calls.some((c) => c.path === '/v1/token')).toBe(true);
  });

  it('is exit 2 for a region the project does not have', async () => {
    const r = await kraftsman(['catalog', '--cloud', 'gcp', '--region', 'europe-west9'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: unknown Google Cloud region europe-west9');
  });

  it('is exit 2 without credentials', async () => {
    const r = await kraftsman(['catalog', '--cloud', 'gcp', '--region', 'us-central1'], {
      GOOGLE_CLOUD_PROJECT: PROJECT,
      KRAFTSMAN_GCE_ENDPOINT: env.KRAFTSMAN_GCE_ENDPOINT as string,
      // no ADC file, no gcloud config, and no metadata server to ask
      GOOGLE_APPLICATION_CREDENTIALS: '',
      CLOUDSDK_CONFIG: '/nonexistent',
      GCE_METADATA_HOST: '127.0.0.1:9',
      METADATA_SERVER_DETECTION: 'none',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: no Google Cloud credentials found');
  });
});
