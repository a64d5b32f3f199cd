// The claims a scheduling run opened, kept ordered by load — fewest pods first, then creation — which is the
// order Karpenter tries them in (it sorts them for every pod; keeping them sorted is cheaper). A claim that
// gained a pod moves right past lighter ones; an undo (a rolled-back gang) marks the order for a re-sort.
import type { Journal } from './journal.ts';
import type { NewClaim } from './new-claim.ts';

export class LoadOrder {
  private list: NewClaim[] = [];
  private dirty = false;
  /** Told when an undo disturbs the order and when it is re-sorted (the delta simulation's base records both). */
  observer: { dirty(): void; resorted(): void } | undefined;

  constructor(
    private readonly created: readonly NewClaim[],
    private readonly journal: Journal,
  ) {}

  /** The claims in load order (re-sorted first if an undo disturbed it). */
  ordered(): readonly NewClaim[] {
    if (this.dirty) this.resort();
    return this.list;
  }

  /** A new claim joins (it already holds its first pod). */
  opened(claim: NewClaim): void {
    this.list.push(claim);
    this.changed(this.list.length - 1);
    this.journal.push(() => this.disturb());
  }

  /** The claim at `i` of ordered() gained a pod. */
  changed(i: number): void {
    const list = this.list;
    const c = list[i] as NewClaim;
    let j = i;
    while (j + 1 < list.length && (list[j + 1] as NewClaim).pods.length < c.pods.length) {
      list[j] = list[j + 1] as NewClaim;
      j++;
    }
    while (j > 0 && (list[j - 1] as NewClaim).pods.length > c.pods.length) {
      list[j] = list[j - 1] as NewClaim;
      j--;
    }
    list[j] = c;
    if (j !== i) this.journal.push(() => this.disturb());
  }

  private disturb(): void {
    this.dirty = true;
    this.observer?.dirty();
  }

  private resort(): void {
    this.dirty = false;
    this.observer?.resorted();
    const order = new Map(this.created.map((c, i) => [c, i]));
    this.list = this.list.filter((c) => order.has(c));
    this.list.sort(
      (a, b) => a.pods.length - b.pods.length || (order.get(a) as number) - (order.get(b) as number),
    );
  }
}
