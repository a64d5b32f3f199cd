// Runs the emulator on its own: `npx tsx local/kube-api/main.ts [--kubeconfig FILE] [--demo]` prints the
// URL and writes a kubeconfig so that `kubectl --kubeconfig FILE get nodes` works against it.
import { writeFileSync } from 'node:fs';
import { defaultCrds } from './crds.ts';
import { KubeApiEmulator } from './server.ts';
import { registerNode } from './alive/register-node.ts';

const args = process.argv.slice(2);
const kubeconfigPath = args.includes('--kubeconfig') ? args[args.indexOf('--kubeconfig') + 1] : undefined;
const emulator = new KubeApiEmulator({ crds: defaultCrds() });
const url = await emulator.start();
if (args.includes('--demo')) {
  for (const [i, zone] of ['us-east-1a', 'us-east-1b'].entries())
    registerNode(emulator, {
      nodeName: `gpu-${i}`,
      providerId: `aws:///${zone}/i-0demo${i}`,
      labels: {
        'karpenter.sh/nodepool': 'aws-inference',
        'topology.kubernetes.io/zone': zone,
        'node.kubernetes.io/instance-type': 'g5.xlarge',
      },
      taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
      capacity: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1', pods: '58' },
    });
}
if (kubeconfigPath) {
  const config = [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: emulator, cluster: {server: '${url}'}}]`,
    'users: [{name: kraftsman, user: {token: emulator}}]',
    'contexts: [{name: emulator, context: {cluster: emulator, user: kraftsman}}]',
    'current-context: emulator',
    '',
  ].join('\n');
  writeFileSync(kubeconfigPath, config);
}
process.stdout.write(`kube-api emulator listening on ${url}\n`);
const stop = (): void => void emulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
