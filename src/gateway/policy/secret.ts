/**
 * Secrets compared in constant time: a key's secret against what a request carried. Both sides are hashed first
 * (SHA-256), so `timingSafeEqual` always compares 32 bytes with 32: the time taken says nothing of how many leading
 * characters matched, nor of the secret's length (a plain `===` stops at the first differing character).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Whether `given` is the secret `expected`, in time independent of where they differ. */
export function secretMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
