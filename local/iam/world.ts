// The IAM emulator's state: roles (seeded), instance profiles, what the SDK sent, and the eventual consistency
// of a new or changed profile as EC2 sees it (README.md, "Eventual consistency").
export interface IamRole {
  readonly name: string;
  readonly id: string;
  readonly path: string;
  readonly createDate: Date;
}

export interface IamInstanceProfile {
  readonly name: string;
  readonly id: string;
  readonly path: string;
  readonly createDate: Date;
  roles: string[];
  tags: Record<string, string>;
  /** When the profile last changed (created, a role added): EC2 may not see it for a while after. */
  changedAt: number;
  /** How many more launches naming the profile EC2 refuses (the `launches` form of the propagation lag). */
  unseenLaunches: number;
}

export interface IamPropagation {
  /** EC2 refuses the next `launches` launches naming a profile after it is created or given a role. */
  readonly launches?: number;
  /** …or every launch for `ms` after the change, on the world's clock. */
  readonly ms?: number;
}

/** IAM's quotas (IAM User Guide, "IAM and AWS STS quotas"): 1,000 instance profiles per account, one role each. */
export const INSTANCE_PROFILES_PER_ACCOUNT = 1000;
export const ROLES_PER_INSTANCE_PROFILE = 1;

export class IamWorld {
  readonly roles = new Map<string, IamRole>();
  readonly profiles = new Map<string, IamInstanceProfile>();
  readonly calls: string[] = [];
  readonly requests: { action: string; params: ReadonlyMap<string, string> }[] = [];
  readonly faults: { failNext: Record<string, { code: string; message: string; status?: number }> } = {
    failNext: {},
  };
  account = '123456789012';
  propagation: IamPropagation = {};
  private seq = 0;

  constructor(private readonly clock: () => Date = () => new Date()) {}

  now(): Date {
    return this.clock();
  }

  nextId(prefix: string): string {
    this.seq += 1;
    return `${prefix}${this.seq.toString(16).toUpperCase().padStart(17, '0')}`;
  }

  addRole(name: string, path = '/'): IamRole {
    const role = { name, id: this.nextId('AROA'), path, createDate: this.now() };
    this.roles.set(name, role);
    return role;
  }

  /** A profile someone made outside kraftsman (what spec.instanceProfile names), holding `role`, visible to EC2. */
  addInstanceProfile(name: string, role: string, path = '/'): IamInstanceProfile {
    if (!this.roles.has(role)) this.addRole(role);
    const p: IamInstanceProfile = {
      name,
      id: this.nextId('AIPA'),
      path,
      createDate: this.now(),
      roles: [role],
      tags: {},
      changedAt: 0,
      unseenLaunches: 0,
    };
    this.profiles.set(name, p);
    return p;
  }

  roleArn(r: IamRole): string {
    return `arn:aws:iam::${this.account}:role${r.path}${r.name}`;
  }

  profileArn(p: IamInstanceProfile): string {
    return `arn:aws:iam::${this.account}:instance-profile${p.path}${p.name}`;
  }

  /** Marks a profile changed: the propagation lag starts again. */
  touch(p: IamInstanceProfile): void {
    p.changedAt = this.now().getTime();
    p.unseenLaunches = this.propagation.launches ?? 0;
  }

  /**
   * Whether EC2 accepts this profile name in a launch now (the EC2 emulator asks, once per launch template a
   * fleet names): it must exist and have propagated. Each refusal counts down the `launches` lag.
   */
  usableByEc2(name: string): boolean {
    const p = this.profiles.get(name);
    if (!p) return false;
    const lagMs = this.propagation.ms ?? 0;
    const young = lagMs > 0 && this.now().getTime() - p.changedAt < lagMs;
    if (p.unseenLaunches > 0) {
      p.unseenLaunches -= 1;
      return false;
    }
    return !young;
  }
}
