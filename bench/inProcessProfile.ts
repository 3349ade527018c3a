/**
 * A V8 CPU profile of this process around a measured stretch (bench/simCpu.ts, bench/sendCpu.ts): `startProfile(path)`
 * starts one (200 us sampling) when `path` is given and answers the function that stops it and writes
 * `<path>.<round>.cpuprofile` (bench/simProf.ts reads it); without a path both do nothing.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

export async function startProfile(path: string | undefined): Promise<(round: number) => Promise<void>> {
  if (!path) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async (round) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${path}.${round}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  };
}
