/**
 * Who holds a claim (store.ts): this process, named so that another process
 * on the same machine can tell for certain that it has exited (kill -9, a
 * crash) and take its claims over at once, instead of waiting out their
 * lifetime (a delivery's 60 s, a publish's 120 s) after a restart.
 *
 * "Certain" only where a process id names one process at a time: the same
 * boot (boot_id) and the same pid namespace (a container's own, or the
 * host's). There, a holder whose pid no longer exists (ESRCH) has exited, and
 * a holder with this process's own pid but another start time is an earlier
 * process (a restarted container's server is often pid 1 again); the same pid
 * and start time with another id is a sibling in this process (a worker
 * thread, another module context: the Netlify CLI runs functions so), alive
 * as long as this process is. Anything else — a pid
 * alive (maybe reused: then the claim is waited out, as before), another
 * machine or container sharing the store, a zombie not yet reaped, a system
 * without /proc — counts as alive: a live holder's claim is never taken.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';

/** This boot of this machine and this pid namespace; null where it cannot be known (not Linux). */
function whereIdsAreUnique(): string | null {
  try {
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return null;
  }
}

const MACHINE = whereIdsAreUnique();

/** When this process started, in clock ticks since boot (/proc/self/stat, field 22); null off Linux. */
function processStart(): string | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const START = processStart();

/**
 * The holder a claim is taken with: this machine and namespace, this pid and
 * start, and an id of this process alone. One holder per process, not per
 * copy of this module: a host may load two bundles of the function into one
 * process (the hosts tests load two copies), and copies with their own ids
 * would each take the other's live claims for an exited process's (same pid,
 * another id).
 */
const PROCESS_HOLDER = Symbol.for('roofing-reviews.claim-holder');
const processGlobals = globalThis as { [PROCESS_HOLDER]?: string };
export const THIS_HOLDER: string = (processGlobals[PROCESS_HOLDER] ??= JSON.stringify({
  machine: MACHINE,
  pid: process.pid,
  start: START,
  id: randomBytes(8).toString('hex'),
}));

/** Whether the process that took a claim as `holder` has certainly exited. */
export function holderIsGone(holder: unknown): boolean {
  if (MACHINE === null || typeof holder !== 'string') return false;
  let parsed: { machine?: unknown; pid?: unknown; start?: unknown; id?: unknown };
  try {
    parsed = JSON.parse(holder) as typeof parsed;
  } catch {
    return false;
  }
  if (parsed.machine !== MACHINE || typeof parsed.pid !== 'number' || typeof parsed.id !== 'string') return false;
  if (parsed.pid === process.pid)
    return START !== null && typeof parsed.start === 'string' ? parsed.start !== START : holder !== THIS_HOLDER;
  try {
    process.kill(parsed.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
