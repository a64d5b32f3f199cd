// Bootstrap tokens as kubeadm writes them (docs/mechanisms/bootstrap.md#kubeadm): a Secret
// kube-system/bootstrap-token-<id> of type bootstrap.kubernetes.io/token with token-id, token-secret, expiration,
// the two usages and kubeadm's node group, so `kubeadm join --token <id>.<secret>` authenticates.
import { createHash, randomInt } from 'node:crypto';
import { JOIN_TOKEN_PATTERN, type JoinToken } from '../../model/join-readiness.ts';
import { AlreadyExistsError, ObjectNotFoundError } from '../../ports/cluster/errors.ts';
import type { JoinTokenRequest } from '../../ports/cluster/index.ts';
import type { KubeClients } from './client.ts';
import { toClusterError } from './errors.ts';
import { plain } from './validate.ts';

const NAMESPACE = 'kube-system';
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** The annotation that ties a token to the launch it was issued for. */
export const JOIN_KEY_ANNOTATION = 'kraftsman.dev/join-token-for';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: unknown): string =>
  typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : '';

/** Six characters of [a-z0-9] derived from the key: the same launch window names the same Secret. */
export function tokenIdFor(key: string): string {
  const digest = createHash('sha256').update(key).digest();
  return Array.from(digest.subarray(0, 6), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

const randomSecret = (): string =>
  Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

interface RawSecret {
  metadata?: { name?: string; annotations?: Record<string, string> };
  type?: string;
  data?: Record<string, string>;
}

function tokenOf(name: string, raw: RawSecret): JoinToken {
  const token = `${unb64(raw.data?.['token-id'])}.${unb64(raw.data?.['token-secret'])}`;
  const m = JOIN_TOKEN_PATTERN.exec(token);
  if (raw.type !== 'bootstrap.kubernetes.io/token' || !m)
    throw new Error(
      `Secret ${NAMESPACE}/${name} is not a bootstrap token (type bootstrap.kubernetes.io/token with token-id [a-z0-9]{6} and token-secret [a-z0-9]{16})`,
    );
  return { id: m[1] as string, secret: m[2] as string };
}

async function read(c: KubeClients, name: string): Promise<RawSecret> {
  try {
    return plain(await c.core.readNamespacedSecret({ name, namespace: NAMESPACE })) as RawSecret;
  } catch (err: unknown) {
    throw toClusterError(err, { kind: 'Secret', namespace: NAMESPACE, name });
  }
}

export async function readJoinToken(c: KubeClients, name: string): Promise<JoinToken> {
  return tokenOf(name, await read(c, name));
}

export async function issueJoinToken(c: KubeClients, r: JoinTokenRequest): Promise<JoinToken> {
  const id = tokenIdFor(r.key);
  const name = `bootstrap-token-${id}`;
  const existing = async (): Promise<JoinToken> => {
    const raw = await read(c, name);
    if (raw.metadata?.annotations?.[JOIN_KEY_ANNOTATION] !== r.key)
      throw new Error(
        `Secret ${NAMESPACE}/${name} exists for another launch (token id collision); retry later`,
      );
    return tokenOf(name, raw);
  };
  try {
    return await existing();
  } catch (err: unknown) {
    if (!(err instanceof ObjectNotFoundError)) throw err;
  }
  const secret = randomSecret();
  try {
    await c.core.createNamespacedSecret({
      namespace: NAMESPACE,
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: NAMESPACE, annotations: { [JOIN_KEY_ANNOTATION]: r.key } },
        type: 'bootstrap.kubernetes.io/token',
        data: {
          'token-id': b64(id),
          'token-secret': b64(secret),
          expiration: b64(r.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z')),
          description: b64(r.description),
          'usage-bootstrap-authentication': b64('true'),
          'usage-bootstrap-signing': b64('true'),
          'auth-extra-groups': b64('system:bootstrappers:kubeadm:default-node-token'),
        },
      },
    });
    return { id, secret };
  } catch (err: unknown) {
    const e = toClusterError(err, { kind: 'Secret', namespace: NAMESPACE, name });
    // Another launcher of the same launch created it first: use theirs.
    if (e instanceof AlreadyExistsError) return existing();
    throw e;
  }
}
