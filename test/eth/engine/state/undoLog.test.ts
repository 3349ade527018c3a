/** The journal of devgate's state managers: nested checkpoints, revert undoes the innermost's writes backwards. */
import { describe, expect, it } from 'vitest';
import { UndoLog } from '../../../../src/eth/engine/state/undoLog.js';

describe('UndoLog', () => {
  it('reverts the innermost checkpoint backwards, keeps committed writes for the outer one, records nothing when idle', () => {
    const log = new UndoLog();
    const state: number[] = [];
    const write = (v: number) => {
      state.push(v);
      log.record(() => expect(state.pop()).toBe(v));
    };
    write(0); // idle: stays
    log.checkpoint();
    write(1);
    log.checkpoint();
    write(2);
    write(3);
    expect(log.depth).toBe(2);
    expect(log.revert()).toBe(false);
    expect(state).toEqual([0, 1]);
    log.checkpoint();
    write(4);
    expect(log.commit()).toBe(false);
    expect(state).toEqual([0, 1, 4]);
    expect(log.revert()).toBe(true);
    expect(state).toEqual([0]);
    log.checkpoint();
    write(5);
    expect(log.commit()).toBe(true);
    expect(log.depth).toBe(0);
    log.checkpoint();
    expect(log.revert()).toBe(true);
    expect(state).toEqual([0, 5]);
  });
});
