import fs from 'node:fs';

/**
 * CPU time (all threads) and resident memory of another process and of the processes it started
 * (a pipeline child's native OCR engines: their pages are the run's cost), from /proc (Linux).
 */
export interface ProcessUsage {
  cpuMs: number;
  rssBytes: number;
}

/** Clock ticks per second of /proc/<pid>/stat: 100 on every Linux this runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;
const PAGE_SIZE = 4096;

/**
 * Reads /proc/<pid>/stat; null where /proc does not exist (then only the wall-clock budget
 * holds) or the process is gone. sharp's and tfjs's memory lives outside the JS heap, so the
 * resident set is what is measured, not V8's heap.
 */
export function processUsage(pid: number): ProcessUsage | null {
  const own = singleProcessUsage(pid);
  if (!own) return null;
  for (const child of childrenOf(pid)) {
    const u = processUsage(child);
    if (u) {
      own.cpuMs += u.cpuMs;
      own.rssBytes += u.rssBytes;
    }
  }
  return own;
}

/** The processes `pid` started and that still run (any of its threads may have started them). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    try {
      for (const c of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').split(' ')) if (c) children.push(Number(c));
    } catch {
      // The thread ended meanwhile, or the kernel has no children files: the process alone is counted.
    }
  }
  return children;
}

function singleProcessUsage(pid: number): ProcessUsage | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command name (field 2) may contain spaces and parentheses: split after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const rssPages = Number(fields[21]);
  if (![utime, stime, rssPages].every(Number.isFinite)) return null;
  return { cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND, rssBytes: rssPages * PAGE_SIZE };
}
