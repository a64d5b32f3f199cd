// What a cloud resolved a node class's selectors to, in the shape Karpenter's node-class status publishes
// (EC2NodeClass status.amis / subnets / securityGroups / instanceProfile; docs/observability.md, "Node classes").
// Each part either resolved or carries why not; shared/loop/nodeclass-status.ts turns it into conditions.

/** A node selector requirement as status.amis[].requirements carries it. */
export interface StatusRequirement {
  readonly key: string;
  readonly operator: 'In' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[];
}

/** One part of a resolution: what it resolved to, or the reason and message its condition goes False with. */
export type Resolved<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string; readonly message: string };

export interface StatusAmi {
  readonly id: string;
  readonly name: string;
  readonly requirements: readonly StatusRequirement[];
}
export interface StatusSubnet {
  readonly id: string;
  readonly zone: string;
  readonly zoneID?: string;
}
export interface StatusSecurityGroup {
  readonly id: string;
  readonly name?: string;
}

export interface Ec2NodeClassResolution {
  readonly kind: 'EC2NodeClass';
  readonly amis: Resolved<readonly StatusAmi[]>;
  readonly subnets: Resolved<readonly StatusSubnet[]>;
  readonly securityGroups: Resolved<readonly StatusSecurityGroup[]>;
  /** The profile launches use: spec.instanceProfile, or the one kraftsman makes for spec.role. */
  readonly instanceProfile: Resolved<string>;
}

/** What one kind of machine (architecture × NVIDIA GPUs or none) boots: kraftsman's GCENodeClass status.images. */
export interface StatusGceImage {
  /** The image or image family URL, as the launch's sourceImage takes it. */
  readonly image: string;
  readonly arch: 'amd64' | 'arm64';
  readonly accelerator: 'nvidia' | 'none';
  /** Who installs the NVIDIA driver: the image, the startup script, the user (an id term), or none (no GPU). */
  readonly driver: 'image' | 'startup-script' | 'user' | 'none';
}

/** A GCENodeClass needs no lookup: its images, subnetwork and service account come from its spec. */
export interface GceNodeClassResolution {
  readonly kind: 'GCENodeClass';
  /** The image each kind of machine boots (docs/mechanisms/images.md, "Compute Engine"). */
  readonly images: Resolved<readonly StatusGceImage[]>;
  readonly subnetwork?: string;
  readonly serviceAccount?: string;
}

export type NodeClassResolution = Ec2NodeClassResolution | GceNodeClassResolution;

export const resolved = <T>(value: T): Resolved<T> => ({ ok: true, value });
export const unresolved = <T>(reason: string, message: string): Resolved<T> => ({
  ok: false,
  reason,
  message,
});
