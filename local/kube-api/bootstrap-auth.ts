// Bootstrap-token authentication as kube-apiserver does it (its bootstrap token authenticator,
// plugin/pkg/auth/authenticator/token/bootstrap): a bearer token shaped `[a-z0-9]{6}.[a-z0-9]{16}` is looked up
// as the Secret kube-system/bootstrap-token-<id>, which must be of type bootstrap.kubernetes.io/token, not being
// deleted, hold the same token-secret, not be past its `expiration`, and allow usage-bootstrap-authentication;
// otherwise 401. The identity is system:bootstrap:<id> in system:bootstrappers plus the Secret's auth-extra-groups.
// What it may do here is the emulator's shortcut (local/kube-api/README.md): create its Node, nothing else.
import { statusError } from './status.ts';
import type { Store } from './store.ts';
import type { ResourceType } from './resources.ts';

/**
 * The local cluster's CA as node classes name it: the emulator serves plain HTTP, so nothing verifies these;
 * they only make node classes of the local fleet and the tests complete (docs/mechanisms/bootstrap.md).
 */
export const LOCAL_CA_BUNDLE = Buffer.from(
  '-----BEGIN CERTIFICATE-----\nkraftsman local\n-----END CERTIFICATE-----\n',
).toString('base64');
export const LOCAL_CA_CERT_HASH = `sha256:${'6b7261667473'.padEnd(64, '0')}`;

export const BOOTSTRAP_TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;

export interface BootstrapIdentity {
  readonly user: string;
  readonly groups: readonly string[];
}

const unauthorized = (): never => {
  throw statusError(401, 'Unauthorized', 'Unauthorized');
};

/** The bearer token of a request when it has the shape of a bootstrap token, else undefined. */
export function bootstrapBearer(authorization: string | undefined): RegExpExecArray | undefined {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  return (token && BOOTSTRAP_TOKEN.exec(token)) || undefined;
}

/** The identity of a bootstrap token, or 401 Unauthorized (never a hint of which check failed, as the server). */
export function authenticateBootstrapToken(
  store: Store,
  secrets: ResourceType,
  token: RegExpExecArray,
  now: Date,
): BootstrapIdentity {
  const [, id = '', secret = ''] = token;
  const s = store.find(secrets, 'kube-system', `bootstrap-token-${id}`);
  if (!s || s.metadata.deletionTimestamp) return unauthorized();
  const raw = s as { data?: Record<string, string>; stringData?: Record<string, string> };
  const field = (k: string): string =>
    raw.stringData?.[k] ??
    (raw.data?.[k] !== undefined ? Buffer.from(raw.data[k], 'base64').toString('utf8') : '');
  if ((s as { type?: string }).type !== 'bootstrap.kubernetes.io/token') return unauthorized();
  if (field('token-id') !== id || field('token-secret') !== secret) return unauthorized();
  const expiration = field('expiration');
  if (expiration && !(Date.parse(expiration) > now.getTime())) return unauthorized();
  if (field('usage-bootstrap-authentication') !== 'true') return unauthorized();
  const extra = field('auth-extra-groups')
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  return { user: `system:bootstrap:${id}`, groups: ['system:bootstrappers', ...extra] };
}

/** The one request a bootstrap identity may make here: create a Node (the kubelet's registration, collapsed). */
export function authorizeBootstrap(
  who: BootstrapIdentity,
  verb: string,
  resource: string,
  group: string,
): void {
  if (verb === 'create' && resource === 'nodes' && group === '') return;
  throw statusError(
    403,
    'Forbidden',
    `${resource} is forbidden: User "${who.user}" cannot ${verb} resource "${resource}" in API group "${group}"`,
    { kind: resource },
  );
}
