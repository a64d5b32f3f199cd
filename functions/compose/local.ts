// What a composition root accepts when it runs against local servers instead of the clouds (tests, the local
// fleet): static credentials for the AWS clients, and a place to register clients that must be closed.
export interface Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** Collects the close() of every client a builder made; a Lambda container never closes, a test always does. */
export class Closer {
  private readonly closes: (() => void | Promise<void>)[] = [];
  add(close: () => void | Promise<void>): void {
    this.closes.push(close);
  }
  async close(): Promise<void> {
    const all = this.closes.splice(0).reverse();
    for (const c of all) await c();
  }
}
