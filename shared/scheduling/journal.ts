// An undo log for trial placements and all-or-nothing gangs: inside begin()…commit()/rollback() every state
// change registers its inverse; rollback replays them newest first. Nesting is allowed.
export class Journal {
  private readonly stack: (() => void)[] = [];
  private depth = 0;

  begin(): number {
    this.depth++;
    return this.stack.length;
  }

  push(undo: () => void): void {
    if (this.depth > 0) this.stack.push(undo);
  }

  commit(): void {
    this.depth--;
    if (this.depth === 0) this.stack.length = 0;
  }

  rollback(mark: number): void {
    this.depth--;
    while (this.stack.length > mark) (this.stack.pop() as () => void)();
    if (this.depth === 0) this.stack.length = 0;
  }
}
