// The servers a local fleet runs against, all on 127.0.0.1: the Kubernetes API emulator (alive: booted
// instances register as Nodes), the EC2 and Compute Engine emulators, and DynamoDB Local (the store's
// fenced writes are DynamoDB transactions, which dynalite lacks).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEc2Emulator, type Ec2Emulator } from '../ec2/server.ts';
import { startGceEmulator, type GceEmulator } from '../gce/server.ts';
import {
  defaultCrds,
  KubeApiEmulator,
  parseBootstrap,
  registerNode,
  type KubeObject,
} from '../kube-api/index.ts';
import type { InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import type { LocalDynamo } from '../../test/support/dynamodb/dynalite.ts';
import { startDynamoDbLocal } from '../../test/support/dynamodb/dynamodb-local.ts';

export interface FleetEnvironment {
  readonly kube: KubeApiEmulator;
  readonly kubeUrl: string;
  readonly kubeconfig: string;
  readonly ec2: Ec2Emulator;
  readonly gce: GceEmulator;
  readonly dynamo: LocalDynamo;
  close(): Promise<void>;
}

const kubeconfigYaml = (server: string): string =>
  `apiVersion: v1\nkind: Config\nclusters:\n- name: kraftsman-local\n  cluster:\n    server: ${server}\n` +
  `users:\n- name: local\n  user:\n    token: local\ncontexts:\n- name: kraftsman-local\n  context:\n` +
  `    cluster: kraftsman-local\n    user: local\ncurrent-context: kraftsman-local\n`;

/** A booted instance's Node capacity: its type's in the catalog, as the kubelet would report it. */
const capacityOf = (catalog: InstanceTypeCatalog, type: string): Record<string, string> => {
  const name = type.split('/').pop() ?? type;
  const spec = catalog.instanceTypes.find((t) => t.name === name);
  return Object.fromEntries(Object.entries(spec?.capacity ?? {}).map(([k, v]) => [k, String(v)]));
};

export async function startEnvironment(
  objects: readonly unknown[],
  catalog: InstanceTypeCatalog,
  now: () => Date,
): Promise<FleetEnvironment> {
  const kube = new KubeApiEmulator({ now, crds: defaultCrds() });
  kube.seed(objects as KubeObject[]);
  const kubeUrl = await kube.start();
  const register = (
    nodeName: string,
    providerId: string,
    script: string,
    capacity: Record<string, string>,
  ) => {
    const { labels, taints } = parseBootstrap(script);
    registerNode(kube, { nodeName, providerId, labels, taints, capacity });
  };
  const ec2 = await startEc2Emulator({
    onBoot: (i) => register(i.instanceId, i.providerId, i.userData, capacityOf(catalog, i.instanceType)),
  });
  const gce = await startGceEmulator({
    onBoot: (i) => register(i.name, i.providerId, i.startupScript, capacityOf(catalog, i.machineType)),
  });
  const dynamo = await startDynamoDbLocal();
  const dir = mkdtempSync(join(tmpdir(), 'kraftsman-fleet-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(kubeUrl));
  return {
    kube,
    kubeUrl,
    kubeconfig,
    ec2,
    gce,
    dynamo,
    async close() {
      await Promise.allSettled([kube.close(), ec2.close(), gce.close(), dynamo.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
