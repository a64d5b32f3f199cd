// A kubeconfig held in a secret, reduced to what kraftsman will use (docs/deploy.md, "Secrets"): an https
// server verified against the cluster's own CA, and a bearer token or a client certificate. Whatever would
// weaken that (skipping verification, files, exec plugins, passwords) is refused, naming the field, never
// the value. SecretKubeConfig reads the secret the first time a request needs credentials, so the builders
// that make the clients stay synchronous; a failed read is retried by the next request.
import { KubeConfig, type Cluster, type User } from '@kubernetes/client-node';

export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface KubeconfigOptions {
  /** Tests only: the emulated API server speaks plain http on 127.0.0.1. */
  readonly allowPlainHttp?: boolean;
}

/** Parses (YAML or JSON) and checks a kubeconfig; returns a KubeConfig holding only its current context. */
export function checkedKubeconfig(text: string, where: string, options: KubeconfigOptions = {}): KubeConfig {
  const kc = new KubeConfig();
  try {
    kc.loadFromString(text);
  } catch (err: unknown) {
    throw new KubeconfigError(
      `${where}: not a kubeconfig (${err instanceof Error ? err.message : String(err)})`,
      {
        cause: err,
      },
    );
  }
  const context = kc.getContextObject(kc.getCurrentContext());
  if (!context)
    throw new KubeconfigError(`${where}: current-context "${kc.getCurrentContext()}" is not listed`);
  const cluster = kc.getCluster(context.cluster);
  const user = kc.getUser(context.user);
  if (!cluster) throw new KubeconfigError(`${where}: cluster "${context.cluster}" is not listed`);
  if (!user) throw new KubeconfigError(`${where}: user "${context.user}" is not listed`);
  checkCluster(cluster, where, options);
  checkUser(user, where);
  const only = new KubeConfig();
  only.loadFromOptions({
    clusters: [cluster],
    users: [user],
    contexts: [context],
    currentContext: context.name,
  });
  return only;
}

function checkCluster(cluster: Cluster, where: string, options: KubeconfigOptions): void {
  if (cluster.caFile)
    throw new KubeconfigError(
      `${where}: cluster.certificate-authority names a file; inline certificate-authority-data`,
    );
  const protocol = new URL(cluster.server).protocol;
  if (protocol === 'http:' && options.allowPlainHttp) return;
  if (protocol !== 'https:')
    throw new KubeconfigError(`${where}: cluster.server must be https:// (got ${protocol}//)`);
  if (cluster.skipTLSVerify)
    throw new KubeconfigError(
      `${where}: cluster.insecure-skip-tls-verify is refused; give certificate-authority-data`,
    );
  if (
    !cluster.caData ||
    !Buffer.from(cluster.caData, 'base64').toString('utf8').includes('-----BEGIN CERTIFICATE-----')
  )
    throw new KubeconfigError(
      `${where}: cluster.certificate-authority-data (base64 PEM of the cluster's CA) is required`,
    );
}

function checkUser(user: User, where: string): void {
  const refused = [
    user.exec ? 'exec' : '',
    user.authProvider ? 'auth-provider' : '',
    user.username || user.password ? 'username/password' : '',
    user.certFile || user.keyFile ? 'client-certificate/client-key (files)' : '',
    user.impersonateUser ? 'as' : '',
  ].filter(Boolean);
  if (refused.length > 0)
    throw new KubeconfigError(
      `${where}: user ${refused.join(', ')} refused; use a token or client-certificate-data`,
    );
  const cert = Boolean(user.certData && user.keyData);
  if (Boolean(user.token) === cert)
    throw new KubeconfigError(
      `${where}: user needs exactly one of token and client-certificate-data + client-key-data`,
    );
}

/** A KubeConfig for `server` whose CA and credentials come from `read` (the secret's text), read once. */
export class SecretKubeConfig extends KubeConfig {
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly server: string,
    private readonly read: () => Promise<string>,
    private readonly where: string,
    private readonly options: KubeconfigOptions = {},
  ) {
    super();
    // The clients are built from the server up front; credentials arrive with the secret.
    this.loadFromOptions({
      clusters: [{ name: 'cluster', server, skipTLSVerify: false }],
      users: [{ name: 'pending' }],
      contexts: [{ name: 'pending', cluster: 'cluster', user: 'pending' }],
      currentContext: 'pending',
    });
  }

  override async applySecurityAuthentication(...args: Parameters<KubeConfig['applySecurityAuthentication']>) {
    await this.ready();
    return super.applySecurityAuthentication(...args);
  }

  override async applyToFetchOptions(...args: Parameters<KubeConfig['applyToFetchOptions']>) {
    await this.ready();
    return super.applyToFetchOptions(...args);
  }

  override async applyToHTTPSOptions(...args: Parameters<KubeConfig['applyToHTTPSOptions']>) {
    await this.ready();
    return super.applyToHTTPSOptions(...args);
  }

  private ready(): Promise<void> {
    this.loaded ??= this.read()
      .then((text) => this.install(checkedKubeconfig(text, this.where, this.options)))
      .catch((err: unknown) => {
        this.loaded = undefined;
        throw err;
      });
    return this.loaded;
  }

  private install(kc: KubeConfig): void {
    const cluster = kc.getCurrentCluster();
    const trim = (s: string) => s.replace(/\/+$/, '');
    if (!cluster || trim(cluster.server) !== trim(this.server))
      throw new KubeconfigError(
        `${this.where}: its server ${cluster?.server ?? '(none)'} is not KRAFTSMAN_KUBE_SERVER (${this.server})`,
      );
    this.loadFromOptions({
      clusters: kc.getClusters(),
      users: kc.getUsers(),
      contexts: kc.getContexts(),
      currentContext: kc.getCurrentContext(),
    });
  }
}
