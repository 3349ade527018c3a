/**
 * The checkpoint/commit/revert journal of devgate's own state manager (state/overlayState.ts): each
 * write made under an open checkpoint records how to undo itself; revert() runs those of the innermost checkpoint
 * backwards; commit() keeps them for the checkpoint around it, and forgets them when none stays open.
 */
export class UndoLog {
  private undo: (() => void)[] = [];
  private readonly marks: number[] = [];

  /** Checkpoints open (0 when idle). */
  get depth(): number {
    return this.marks.length;
  }

  /** Records how to undo a write; a write made with no checkpoint open is not undone. */
  record(undo: () => void): void {
    if (this.marks.length !== 0) this.undo.push(undo);
  }

  checkpoint(): void {
    this.marks.push(this.undo.length);
  }

  /** Closes the innermost checkpoint, keeping its writes; true when none stays open. */
  commit(): boolean {
    this.marks.pop();
    if (this.marks.length !== 0) return false;
    this.undo = [];
    return true;
  }

  /** Undoes the writes since the innermost checkpoint and closes it; true when none stays open. */
  revert(): boolean {
    const mark = this.marks.pop() ?? 0;
    for (let i = this.undo.length - 1; i >= mark; i--) this.undo[i]!();
    this.undo.length = mark;
    return this.marks.length === 0;
  }

  /** Forgets every recorded undo (the state was reset while idle). */
  clear(): void {
    this.undo = [];
  }
}
