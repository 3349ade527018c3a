/** Turns one JSON-RPC message text into its response text: the part HTTP and WebSocket share. */
import { answer, parseJson, type RpcResponse } from '../rpc/envelope.js';
import type { Network } from '../network.js';

export interface AnswerLimits {
  readonly maxBatch: number;
}

/** The response to send, or undefined when nothing is to be sent (notifications only). */
export async function answerText(text: string, network: Network, limits: AnswerLimits): Promise<RpcResponse | RpcResponse[] | undefined> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed.response;
  return answer(parsed.value, { maxBatch: limits.maxBatch, execute: (call) => network.execute(call) });
}
