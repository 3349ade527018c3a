/**
 * What devgate's tracers read inside @ethereumjs's Message (`evm/dist/esm/message.js`: `_codeAddress`, set only for
 * a CALLCODE, whose code runs at the caller's address) and Memory (`evm/dist/esm/memory.js`: `_store`, its bytes).
 */

/** Whether the message is a CALLCODE's: it names a code address of its own (a DELEGATECALL's is known otherwise). */
export function hasOwnCodeAddress(message: object): boolean {
  return (message as { _codeAddress?: unknown })._codeAddress !== undefined;
}

/** A copy of the first `length` bytes of an EVM Memory. */
export function memoryBytes(memory: object, length: number): Uint8Array {
  return (memory as { _store: Uint8Array })._store.slice(0, length);
}
