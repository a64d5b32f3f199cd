// The Compute Engine emulator's in-memory world: machine and accelerator types per zone, capacity
// per (machine type, zone, provisioning model), instances, zonal operations, request ids, faults.
import type { SeedSku } from './billing.ts';
import type { EmuResourcePolicy } from './placement.ts';

export type ProvisioningModel = 'STANDARD' | 'SPOT';

export interface EmuMachineType {
  readonly name: string;
  readonly guestCpus: number;
  readonly memoryMb: number;
  /** Bundled GPUs (A2, A3, G2): the instance gets them without guestAccelerators. */
  readonly accelerators?: readonly {
    readonly guestAcceleratorType: string;
    readonly guestAcceleratorCount: number;
  }[];
  readonly zones: readonly string[];
  /** The machine type's architecture, as the API reports it; X86_64 when absent (README "Boot images"). */
  readonly architecture?: 'X86_64' | 'ARM64';
}

export interface EmuAcceleratorType {
  readonly name: string;
  readonly description: string;
  readonly maximumCardsPerInstance: number;
  readonly zones: readonly string[];
}

export interface GceInstance {
  readonly id: string;
  readonly name: string;
  readonly zone: string;
  readonly machineType: string;
  readonly provisioningModel: ProvisioningModel;
  readonly resource: Record<string, unknown>;
  /** The Resource Manager tags bound at creation (`params.resourceManagerTags`; bulkInsert's instanceProperties). */
  readonly resourceManagerTags?: Readonly<Record<string, string>>;
  status: 'PROVISIONING' | 'STAGING' | 'RUNNING' | 'STOPPING' | 'TERMINATED';
  readonly creationTimestamp: string;
  /** Eventual consistency of lists: this many more list/aggregatedList answers leave it out. */
  unlisted?: number;
}

/** One entry of an operation's error.errors (quota errors carry errorDetails with quotaInfo). */
export interface OperationErrorItem {
  readonly code: string;
  readonly message: string;
  readonly errorDetails?: readonly unknown[];
}

export interface GceOperation {
  readonly id: string;
  readonly name: string;
  readonly zone: string;
  readonly operationType: string;
  readonly targetLink: string;
  readonly insertTime: string;
  status: 'PENDING' | 'RUNNING' | 'DONE';
  error?: { errors: OperationErrorItem[] };
  httpErrorStatusCode?: number;
  /** When a slow operation completes (epoch ms); the effect is applied then. */
  doneAt: number;
  /** Applies the effect; an error item (or an empty list: an error without detail) fails the operation. */
  apply?: () => OperationErrorItem | readonly OperationErrorItem[] | undefined;
}

/** What a booted instance tells the Kubernetes emulator, so a Node can register for it. */
export interface BootedGceInstance {
  readonly providerId: string;
  readonly name: string;
  readonly zone: string;
  readonly machineType: string;
  readonly provisioningModel: ProvisioningModel;
  readonly labels: Readonly<Record<string, string>>;
  readonly startupScript: string;
}

export interface GceFaults {
  /** The next N requests fail with 429 RESOURCE_EXHAUSTED rateLimitExceeded (the real body). */
  throttle: number;
  /** How a throttled request is answered: 429 RESOURCE_EXHAUSTED (default) or the documented 403 rateLimitExceeded. */
  throttleStatus?: 403 | 429;
  /** The next insert/bulkInsert is refused at once with 403 quotaExceeded for this quota metric. */
  quotaNext?: { metric: string; limit: number };
  /** Operations stay RUNNING this long (ms) before their effect applies. */
  operationDelayMs: number;
  /**
   * The next insert/bulkInsert operation finishes with this error (e.g. QUOTA_EXCEEDED with quotaInfo),
   * or, given an empty list, with an `error` whose `errors` list is empty.
   */
  failNextOperation?: OperationErrorItem | readonly OperationErrorItem[];
  /** bulkInsert creates what fits even below minCount (the partial launch a bug would leave). */
  ignoreMinCount: boolean;
  /** The Cloud Billing catalog answers 503 (the adapter must fall back to the built-in catalog). */
  billingUnavailable?: boolean;
  /**
   * Eventual consistency of the aggregated list (a GET by name sees an instance at once): a new instance is left out
   * of the next N list/aggregatedList answers.
   */
  unlistedLists?: number;
}

export class GceWorld {
  readonly machineTypes = new Map<string, EmuMachineType>();
  readonly acceleratorTypes = new Map<string, EmuAcceleratorType>();
  readonly instances = new Map<string, GceInstance>();
  readonly operations = new Map<string, GceOperation>();
  readonly requestIds = new Map<string, string>();
  readonly capacity = new Map<string, number>();
  /** Resource policies by `region/name` (compact placement: placement.ts). */
  readonly resourcePolicies = new Map<string, EmuResourcePolicy>();
  readonly faults: GceFaults = { throttle: 0, operationDelayMs: 0, ignoreMinCount: false };
  /** Items per page of a list that sends no maxResults (the API's default is 500; small here so one-page readers miss the rest). */
  pageSize = 2;
  /** Every request as "METHOD path", for tests that assert what the adapter called. */
  readonly calls: string[] = [];
  /** Request bodies by path, in order (what the SDK put on the wire). */
  readonly bodies: { readonly path: string; readonly body: Record<string, unknown> }[] = [];
  private seq = 0;

  /** Cloud Billing SKUs the billing stand-in serves. */
  readonly skus: SeedSku[] = [];

  /** `now` is the world's time (creation and insert times): a local fleet passes its simulated clock. */
  constructor(
    readonly project: string,
    readonly region: string,
    readonly now: () => Date = () => new Date(),
  ) {}

  nextId(): string {
    this.seq += 1;
    return String(1_000_000 + this.seq);
  }

  setCapacity(machineType: string, zone: string, model: ProvisioningModel, count: number): void {
    this.capacity.set(`${machineType}|${zone}|${model}`, count);
  }

  capacityLeft(machineType: string, zone: string, model: ProvisioningModel): number {
    return this.capacity.get(`${machineType}|${zone}|${model}`) ?? Number.POSITIVE_INFINITY;
  }

  consume(machineType: string, zone: string, model: ProvisioningModel, count: number): void {
    const k = `${machineType}|${zone}|${model}`;
    const left = this.capacity.get(k);
    if (left !== undefined) this.capacity.set(k, left - count);
  }

  live(): GceInstance[] {
    return [...this.instances.values()].filter((i) => i.status !== 'TERMINATED');
  }

  /** What a list answer shows now (see faults.unlistedLists); each answer brings lagging instances one closer. */
  listed(): GceInstance[] {
    const out = this.live().filter((i) => !(i.unlisted && i.unlisted > 0));
    for (const i of this.instances.values()) if (i.unlisted && i.unlisted > 0) i.unlisted -= 1;
    return out;
  }

  key(zone: string, name: string): string {
    return `${zone}/${name}`;
  }
}
