// Cluster access as deployed: the kubeconfig comes from Secrets Manager (a local stand-in, the real SDK
// client) and every request to the API server (https on 127.0.0.1, a test CA) is verified against the
// cluster's CA and authenticated by the secret's token or client certificate. Weakened kubeconfigs are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretKubeConfig } from '../../functions/compose/cluster-access.ts';
import { makeClients } from '../../shared/adapters/kube/client.ts';
import { KubeconfigError } from '../../shared/adapters/kube/secret-kubeconfig.ts';
import { SecretReadError } from '../../shared/adapters/secrets/index.ts';
import { launchAwsConfig } from '../../shared/config/launch-aws.ts';
import { ConfigError } from '../../shared/config/errors.ts';
import {
  b64,
  kubeconfig,
  makePki,
  startApiServer,
  startSecretsManager,
  type Listening,
  type Pki,
} from './support/tls.ts';

const TOKEN = 'token-from-the-secret';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
let pki: Pki;
let other: Pki;
let api: Listening;
let secrets: Listening;
const docs: Record<string, string> = {};

beforeAll(async () => {
  [pki, other] = await Promise.all([makePki(), makePki()]);
  api = await startApiServer(pki, TOKEN);
  const ca = { 'certificate-authority-data': b64(pki.caPem) };
  Object.assign(docs, {
    token: kubeconfig(api.url, ca, { token: TOKEN }),
    cert: kubeconfig(api.url, ca, {
      'client-certificate-data': b64(pki.clientCertPem),
      'client-key-data': b64(pki.clientKeyPem),
    }),
    wrongCa: kubeconfig(api.url, { 'certificate-authority-data': b64(other.caPem) }, { token: TOKEN }),
    skipVerify: kubeconfig(api.url, { 'insecure-skip-tls-verify': true }, { token: TOKEN }),
    noCa: kubeconfig(api.url, {}, { token: TOKEN }),
    exec: kubeconfig(api.url, ca, {
      exec: { command: 'aws', apiVersion: 'client.authentication.k8s.io/v1beta1' },
    }),
    both: kubeconfig(api.url, ca, {
      token: TOKEN,
      'client-certificate-data': b64(pki.clientCertPem),
      'client-key-data': b64(pki.clientKeyPem),
    }),
    otherServer: kubeconfig('https://127.0.0.1:1', ca, { token: TOKEN }),
    plainHttp: kubeconfig(api.url.replace('https:', 'http:'), {}, { token: TOKEN }),
  });
  secrets = await startSecretsManager(docs);
}, 60_000);

afterAll(async () => {
  await api?.close();
  await secrets?.close();
});

const clientFor = (secretId: string, server = api.url) =>
  makeClients(
    secretKubeConfig(server, { secretId, region: 'us-east-1', endpoint: secrets.url }, { credentials }),
  ).core;

const nodeNames = async (secretId: string) =>
  (await clientFor(secretId).listNode()).items.map((n) => n.metadata?.name);

describe('a kubeconfig secret', () => {
  it('with a token: CA-verified https, the token sent, the secret read once per container', async () => {
    const core = clientFor('token');
    const before = secrets.requests;
    expect((await core.listNode()).items.map((n) => n.metadata?.name)).toEqual(['by-token']);
    expect((await core.listNode()).items).toHaveLength(1);
    expect(secrets.requests - before).toBe(1);
  });

  it('with a client certificate: the API server authenticates the certificate', async () => {
    expect(await nodeNames('cert')).toEqual(['by-certificate']);
  });

  it("whose CA is not the server's: the TLS handshake fails, nothing is sent", async () => {
    const before = api.requests;
    await expect(nodeNames('wrongCa')).rejects.toThrow();
    expect(api.requests).toBe(before);
  });

  it.each([
    ['skipVerify', 'insecure-skip-tls-verify is refused'],
    ['noCa', 'certificate-authority-data'],
    ['exec', 'user exec'],
    ['both', 'exactly one of token and client-certificate-data'],
    ['plainHttp', 'must be https://'],
  ])('%s is refused, naming the field', async (id, message) => {
    const server = id === 'plainHttp' ? api.url.replace('https:', 'http:') : api.url;
    const err = await clientFor(id, server)
      .listNode()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeconfigError);
    expect(String((err as Error).message)).toContain(message);
    expect(String((err as Error).message)).toContain(`kubeconfig secret ${id}`);
    expect(String((err as Error).message)).not.toContain(TOKEN);
  });

  it('for another server than KRAFTSMAN_KUBE_SERVER is refused', async () => {
    await expect(clientFor('otherServer').listNode()).rejects.toThrow(/is not KRAFTSMAN_KUBE_SERVER/);
  });

  it('that does not exist: SecretReadError naming it, and the next request reads again', async () => {
    const core = clientFor('missing');
    const before = secrets.requests;
    const err = await core.listNode().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretReadError);
    expect((err as SecretReadError).secretId).toBe('missing');
    expect((err as Error).message).toContain('ResourceNotFoundException');
    await expect(core.listNode()).rejects.toBeInstanceOf(SecretReadError);
    expect(secrets.requests - before).toBeGreaterThanOrEqual(2);
  });
});

describe('function config', () => {
  const env = {
    KRAFTSMAN_CLUSTER_NAME: 'c1',
    AWS_REGION: 'us-east-1',
    KRAFTSMAN_TABLE_NAME: 'state',
    KRAFTSMAN_KUBE_SERVER: 'https://kube.example:6443',
  };

  it('takes the kubeconfig secret when deployed', () => {
    const c = launchAwsConfig({ ...env, KRAFTSMAN_KUBE_SECRET: 'kraftsman/dev/kubeconfig' });
    expect(c.cluster).toEqual({
      server: env.KRAFTSMAN_KUBE_SERVER,
      secret: { secretId: 'kraftsman/dev/kubeconfig', region: 'us-east-1' },
    });
  });

  it.each([
    ['neither', {}],
    ['both', { KRAFTSMAN_KUBE_SECRET: 's', KRAFTSMAN_KUBE_TOKEN: 't' }],
  ])('refuses %s of the secret and the token, naming both keys', (_, extra) => {
    const err = (() => {
      try {
        return launchAwsConfig({ ...env, ...extra });
      } catch (e: unknown) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).keys).toEqual(['KRAFTSMAN_KUBE_SECRET', 'KRAFTSMAN_KUBE_TOKEN']);
    expect((err as Error).message).toContain('launch-aws');
  });
});
