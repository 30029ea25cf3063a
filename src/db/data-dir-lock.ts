import { createHash, randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';

/** What the lock file says about the process holding it. */
interface LockHolder {
  pid: number;
  /** What the process is ("the server", "the import command"), else its command line. */
  owner: string;
  since: string;
  /** The process's start as the kernel knows it, where /proc tells it: tells a reused pid apart. */
  start?: string;
  /** Tells this holding apart from a later one of the same process. */
  token: string;
}

class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.owner}, since ${holder.since}). ` +
        'Only one process at a time may open it: stop that process first, or, to import readings while the ' +
        'server runs, send them through the server: npm run import -- --url http://<host>:<port> --account <uuid> ' +
        '--file <readings.csv>, with an access token in the environment variable UMS_TOKEN ' +
        '(npm run import -- --help explains both ways).',
    );
    this.name = 'DatabaseInUseError';
  }
}

export const lockFileOf = (dataDir: string) => `${dataDir}.lock`;

/** "<boot id>/<start time in clock ticks>" of process pid, undefined where /proc is not there. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces), in parentheses; the start time is field 22.
    const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return startTicks ? `${boot}/${startTicks}` : undefined;
  } catch {
    return undefined;
  }
}

const parsedHolder = (text: string): LockHolder | undefined => {
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined;
  }
};

/** The text of a lock file, undefined when there is none. */
function lockText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const readHolder = (file: string) => parsedHolder(lockText(file) ?? '');

/** Locks held by this process, by lock file. */
const heldHere = new Set<string>();

function isAlive(file: string, holder: LockHolder): boolean {
  // An earlier process that had this pid (a container restarted) left it behind.
  if (holder.pid === process.pid) return heldHere.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists, under another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = holder.start === undefined ? undefined : processStart(holder.pid);
  return start === undefined || start === holder.start;
}

/** A file next to file holding holder, written whole: linked or renamed into place, never seen half written. */
function draftOf(file: string, holder: LockHolder): string {
  const draft = `${file}.${process.pid}.${holder.token}`;
  writeFileSync(draft, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
  return draft;
}

/** Creates the lock file whole, or fails with EEXIST. */
function create(file: string, holder: LockHolder): void {
  const draft = draftOf(file, holder);
  try {
    linkSync(draft, file);
  } finally {
    unlinkSync(draft);
  }
}

const isTaken = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EEXIST';

/** The n-th claim file of the takeover of the lock file whose text is left. */
export const takeoverClaimOf = (file: string, left: string, n: number) =>
  `${file}.takeover-${createHash('sha256').update(left).digest('hex').slice(0, 16)}.${n}`;

/**
 * Replaces the lock file, whose text is left by a process that is gone (or unreadable), with
 * holder's: true once done, false when the file changed meanwhile. Takers of the same left
 * lock first create a claim file named after its text, exclusively (O_EXCL): the first claim
 * whose creator is alive wins, and a claim left by a taker that died is passed over to the next
 * one. The winner checks the lock still has the text it claimed, then renames its own file over
 * it, so that at most one process ever holds the lock. Throws DatabaseInUseError when another
 * live process is taking it over.
 */
function takeOver(dataDir: string, file: string, left: string, holder: LockHolder): boolean {
  const claimOf = (n: number) => takeoverClaimOf(file, left, n);
  let n = 1;
  for (; ; n++) {
    try {
      create(claimOf(n), holder);
      break;
    } catch (error) {
      if (!isTaken(error)) throw error;
    }
    const claimant = readHolder(claimOf(n));
    if (claimant && isAlive(claimOf(n), claimant)) throw new DatabaseInUseError(dataDir, claimant);
  }
  try {
    if (lockText(file) !== left) return false;
    renameSync(draftOf(file, holder), file);
    return true;
  } finally {
    for (let k = 1; k <= n; k++) rmSync(claimOf(k), { force: true });
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the lock of the embedded database in dataDir for this process (a file next to it naming
 * the process), until release or exit. Throws DatabaseInUseError when a live process holds it;
 * a lock left by a process that is gone is taken over.
 */
export function lockDataDir(dataDir: string, owner?: string): DataDirLock {
  const file = lockFileOf(dataDir);
  const holder: LockHolder = {
    pid: process.pid,
    owner: owner ?? process.argv.slice(1).join(' '),
    since: new Date().toISOString(),
    start: processStart(process.pid),
    token: randomUUID(),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      create(file, holder);
      break;
    } catch (error) {
      if (!isTaken(error)) throw error;
    }
    const left = lockText(file);
    if (left === undefined) continue;
    const current = parsedHolder(left);
    if (current && isAlive(file, current)) throw new DatabaseInUseError(dataDir, current);
    // Its holder is gone, or it is unreadable (a lock file is never seen half written): taken over.
    if (takeOver(dataDir, file, left, holder)) break;
    if (attempt === 3) throw new Error(`could not take over ${file}, left by a process that is gone`);
  }
  heldHere.add(file);

  const release = () => {
    process.off('exit', release);
    if (!heldHere.delete(file)) return;
    if (readHolder(file)?.token === holder.token) unlinkSync(file);
  };
  process.on('exit', release);
  return { release };
}
