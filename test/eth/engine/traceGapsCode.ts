/** Hand-written contracts of the tracing-gap tests (issue 17): block-field reader, self-destructors, failing calls. */

/** Returns 8 words: NUMBER, TIMESTAMP, GASLIMIT, COINBASE, PREVRANDAO, BASEFEE, BLOBBASEFEE, BLOCKHASH(calldata word 0). */
export const BLOCK_READER_CODE =
  `0x${['435f52', '42602052', '45604052', '41606052', '44608052', '4860a052', '4a60c052', '5f354060e052', '6101005ff3'].join('')}` as const;
