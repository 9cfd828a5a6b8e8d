// V8 settings the process takes from the machine it runs on, set before the app (and its worker threads) starts.
import os from 'node:os';
import v8 from 'node:v8';

/**
 * V8 flags for a machine with `cores` cores, unless the command line already decides them (pure, for tests).
 * On two cores or fewer, the API thread and the NLP thread keep every core busy while signals arrive: the
 * young-generation collector's helper threads then only wait for a core, and the thread that allocated waits
 * for them (scavenges of 3–36 ms measured on the ingest bench); it collects faster alone.
 */
export function runtimeFlags(cores: number, execArgv: readonly string[]): string[] {
  const decided = execArgv.some((arg) => /^--(no-)?(parallel-scavenge|single-threaded-gc)$/.test(arg));
  return cores <= 2 && !decided ? ['--no-parallel-scavenge'] : [];
}

/** Applies `runtimeFlags` for this machine; returns the flags set. */
export function tuneRuntime(
  cores = os.availableParallelism(),
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flag: string) => void = v8.setFlagsFromString,
): string[] {
  const flags = runtimeFlags(cores, execArgv);
  for (const flag of flags) setFlags(flag);
  return flags;
}
