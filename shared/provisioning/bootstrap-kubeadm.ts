// Kubeadm family: a bash script for a self-managed cluster's node — kubelet flags through kubeadm's
// KUBELET_EXTRA_ARGS files, wait for the NVIDIA driver on GPU images, then `kubeadm join` with a bootstrap token
// and the CA hash (docs/mechanisms/bootstrap.md#kubeadm). A MIME userData keeps its parts, this script goes last.
import type { JoinToken } from '../model/join-readiness.ts';
import { envFileLines, exportLines, kraftsmanEnv, type JoinFacts } from './bootstrap-facts.ts';
import { isMime, parseMime, serializeMime, shellPart } from './bootstrap-mime.ts';

/** `host:port` as `kubeadm join` takes its API server endpoint (no scheme; 443 when the URL names no port). */
export function joinEndpoint(apiServerEndpoint: string): string {
  const url = new URL(apiServerEndpoint);
  return url.port ? url.host : `${url.host}:443`;
}

/**
 * The Node's spec.providerID, read from the instance metadata service, so the lifecycle can match the Node to its
 * NodeClaim (docs/mechanisms/bootstrap.md#kubeadm): a self-managed cluster runs no cloud controller to set it, and
 * without it the node would never count as registered. The formats are the providers' own: `aws:///<zone>/<id>`
 * (IMDSv2, as the launch template requires tokens) and `gce://<project>/<zone>/<name>`.
 */
const PROVIDER_ID: Readonly<Record<'aws' | 'gcp', readonly string[]>> = {
  aws: [
    'imds_token="$(curl -sf -X PUT -H \'X-aws-ec2-metadata-token-ttl-seconds: 300\' http://169.254.169.254/latest/api/token)"',
    'imds() { curl -sf -H "X-aws-ec2-metadata-token: $imds_token" "http://169.254.169.254/latest/meta-data/$1"; }',
    'provider_id="aws:///$(imds placement/availability-zone)/$(imds instance-id)"',
  ],
  gcp: [
    'gce() { curl -sf -H \'Metadata-Flavor: Google\' "http://metadata.google.internal/computeMetadata/v1/$1"; }',
    'gce_zone="$(gce instance/zone)"',
    'provider_id="gce://$(gce project/project-id)/${gce_zone##*/}/$(gce instance/name)"',
  ],
};

/** How long the script waits for `nvidia-smi` to answer before joining anyway (60 × 5 s). */
const DRIVER_WAIT_TRIES = 60;

function script(f: JoinFacts, token: JoinToken, cloud: 'aws' | 'gcp', inline: readonly string[]): string {
  const env: [string, string][] = [
    ...kraftsmanEnv(f),
    ['KRAFTSMAN_JOIN_ENDPOINT', joinEndpoint(f.apiServerEndpoint)],
    ['KRAFTSMAN_JOIN_TOKEN', `${token.id}.${token.secret}`],
  ];
  return [
    '#!/bin/bash',
    `# kraftsman bootstrap (Kubeadm) for NodeClaim ${f.claimName}`,
    'set -euo pipefail',
    ...exportLines(env),
    ...inline,
    '# Every path below is under KRAFTSMAN_ROOT, empty on a node (a test sandbox sets it).',
    'root="${KRAFTSMAN_ROOT:-}"',
    ...envFileLines(env.filter(([k]) => k !== 'KRAFTSMAN_JOIN_TOKEN')),
    '# The Node carries its instance as spec.providerID: the lifecycle registers it by that.',
    ...PROVIDER_ID[cloud],
    "# kubeadm's kubelet drop-in reads KUBELET_EXTRA_ARGS from here (DEB and RPM packages).",
    'mkdir -p "$root/etc/default" "$root/etc/sysconfig"',
    'for f in "$root/etc/default/kubelet" "$root/etc/sysconfig/kubelet"; do',
    '  printf \'KUBELET_EXTRA_ARGS=%s --provider-id=%s\\n\' "$KRAFTSMAN_KUBELET_ARGS" "$provider_id" > "$f"',
    'done',
    '# A GPU image loads its driver at boot: join once nvidia-smi answers, so the node registers its GPUs.',
    'if command -v nvidia-smi > /dev/null 2>&1; then',
    `  for _ in $(seq 1 ${DRIVER_WAIT_TRIES}); do`,
    '    if nvidia-smi -L > /dev/null 2>&1; then break; fi',
    '    sleep 5',
    '  done',
    'fi',
    'systemctl daemon-reload',
    'systemctl enable kubelet',
    'kubeadm join "$KRAFTSMAN_JOIN_ENDPOINT" --token "$KRAFTSMAN_JOIN_TOKEN" \\',
    '  --discovery-token-ca-cert-hash "$KRAFTSMAN_CA_CERT_HASH"',
    '',
  ].join('\n');
}

/**
 * The script; a user's shell userData (and spec.bootstrap.script) runs inside it before the join. A MIME userData
 * becomes a MIME document: the user's parts first, this script last (Karpenter's merge order, nodeadm.go).
 */
export function renderKubeadm(
  f: JoinFacts,
  token: JoinToken,
  cloud: 'aws' | 'gcp',
  userData?: string,
  extra?: string,
): string {
  const body = (s: string | undefined): string[] => {
    const text = (s ?? '').replace(/^#!.*\n/, '').trimEnd();
    return text ? [text] : [];
  };
  const steps = (label: string, s: string | undefined): string[] =>
    body(s).length ? [`# ${label}`, ...body(s)] : [];
  if (userData && isMime(userData)) {
    const parts = parseMime(userData, 'spec.userData');
    const own = script(f, token, cloud, steps('spec.bootstrap.script', extra));
    return serializeMime([...parts, shellPart(own)]);
  }
  return script(f, token, cloud, [
    ...steps('node class userData', userData),
    ...steps('spec.bootstrap.script', extra),
  ]);
}
