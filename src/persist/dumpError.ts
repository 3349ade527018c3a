import { InvalidArgument } from '../errors.js';

/** A dump that cannot be loaded: not one, damaged, or of another chain (-32602 for anvil_loadState's bytes). Nothing was changed. */
export class DumpError extends InvalidArgument {
  override name = 'DumpError';
}
