// The SSM emulator's state: parameters by name (the public /aws/service/... ones seeded, seed.ts) and what the SDK
// sent.
export interface SsmParameter {
  readonly name: string;
  value: string;
  version: number;
  lastModified: Date;
}

export class SsmWorld {
  readonly parameters = new Map<string, SsmParameter>();
  readonly calls: string[] = [];
  readonly faults: { failNext: Record<string, { type: string; message: string; status?: number }> } = {
    failNext: {},
  };
  constructor(
    readonly region: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Puts (or replaces, bumping its version) a parameter, as an AWS-published one changes when a new image ships. */
  put(name: string, value: string): void {
    const old = this.parameters.get(name);
    this.parameters.set(name, { name, value, version: (old?.version ?? 0) + 1, lastModified: this.clock() });
  }

  /** Public parameters live in AWS's account: their ARN names no account (…::parameter/aws/service/…). */
  arnOf(name: string): string {
    return `arn:aws:ssm:${this.region}::parameter${name}`;
  }
}
