/** Reading the JSON files devgate is given (seeds, keys), with errors that name the file. */
import { readFileSync } from 'node:fs';

/**
 * Reads and parses a JSON file. A missing file or bad JSON throws `makeError` with a message naming
 * the file as `what` (e.g. `cannot read seed file x.json: ENOENT`, `keys file k.json is not valid JSON: ...`).
 */
export function readJsonFile(path: string, what: string, makeError: (message: string) => Error, shownPath = path): unknown {
  return readJsonBytes(path, what, makeError, shownPath).value;
}

/** readJsonFile, also giving the file's bytes. */
export function readJsonBytes(path: string, what: string, makeError: (message: string) => Error, shownPath = path): { bytes: Buffer; value: unknown } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw makeError(`cannot read ${what} ${shownPath}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return { bytes, value: JSON.parse(bytes.toString('utf8')) };
  } catch (err) {
    throw makeError(`${what} ${shownPath} is not valid JSON: ${(err as Error).message}`);
  }
}
