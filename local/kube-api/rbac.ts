// Optional RBAC for the emulator: bearer tokens mapped to ClusterRoles (as infra/rbac writes them), so a test
// can show that an identity's requests outside its role get kube-apiserver's 403 Forbidden. Off by default (any
// token works, local/kube-api/README.md); only resource requests are authorized, as with kube-apiserver's
// discovery being open to every authenticated user.
import { parseAllDocuments } from 'yaml';
import type { AuditEntry } from './audit.ts';
import { statusError } from './status.ts';

export interface RbacRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}

/** Who a token authenticates as and what its ClusterRole allows. */
export interface RbacIdentity {
  readonly user: string;
  readonly rules: readonly RbacRule[];
}

/** The rules of the ClusterRole named `name` in a multi-document manifest (infra/rbac/*.yaml). */
export function clusterRoleRules(manifest: string, name: string): RbacRule[] {
  const docs = parseAllDocuments(manifest).map(
    (d) => d.toJS() as { kind?: string; metadata?: { name?: string }; rules?: RbacRule[] },
  );
  const role = docs.find((d) => d.kind === 'ClusterRole' && d.metadata?.name === name);
  if (!role) throw new Error(`rbac: no ClusterRole ${name} in the manifest`);
  return role.rules ?? [];
}

const matches = (rule: RbacRule, e: AuditEntry): boolean =>
  (rule.apiGroups.includes(e.group) || rule.apiGroups.includes('*')) &&
  (rule.resources.includes(e.resource) || rule.resources.includes('*')) &&
  (rule.verbs.includes(e.verb) || rule.verbs.includes('*'));

/** Token → identity; an unknown or missing token is 401, a request outside the role 403 (kube-apiserver's). */
export class Rbac {
  constructor(private readonly tokens: ReadonlyMap<string, RbacIdentity>) {}

  authorize(authorization: string | undefined, e: AuditEntry): void {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const who = token ? this.tokens.get(token) : undefined;
    if (!who) throw statusError(401, 'Unauthorized', 'Unauthorized');
    if (who.rules.some((r) => matches(r, e))) return;
    const [resource, sub] = e.resource.split('/');
    throw statusError(
      403,
      'Forbidden',
      `${e.resource} is forbidden: User "${who.user}" cannot ${e.verb} resource "${resource}"${sub ? ` with subresource "${sub}"` : ''} in API group "${e.group}"`,
      { kind: resource },
    );
  }
}
