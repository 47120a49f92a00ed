// The process that started `wfe serve` through npm (`npx wfe serve`, `npm start`), watched so
// the emulator does not outlive it (README "The two commands"; docs/running.md "Stopping
// with npx"). npm runs a bin as `sh -c 'wfe' ...`; Debian's sh (dash) does not exec the
// command, so the tree is npx -> sh -> node, and npx forwards SIGINT and SIGTERM to the
// shell only. Measured with npx 11 and dash 0.5.12:
// - SIGTERM (`kill $!`) or SIGKILL to npx: the shell dies (or is orphaned) and the emulator
//   kept answering. Here: our parent, or our parent's parent, changes -> we stop.
// - SIGINT to npx: the shell catches it and waits for its child before acting, so nothing
//   happened. The shell is otherwise asleep in wait(), and a caught signal wakes it: its
//   context switch count moves. Here: it moves -> we stop, as after Ctrl+C (only when the
//   shell runs nothing but us: onlyRunsUs).
// Linux reads /proc; elsewhere only our own parent is watched. Started without npm
// (`wfe serve &` in a CI step that then ends, the single executable, a container's PID 1),
// nothing is watched: a background server may outlive the shell that started it.
import { readFileSync } from 'node:fs';

/** Real milliseconds between looks. */
const POLL_MS = 200;
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'busybox']);

interface ProcFacts {
  comm: string;
  ppid: number;
  switches: number;
}

/**
 * Whether `pid` is a shell npm started to run this one command and nothing else: `sh -c <one
 * simple command>` (no `;`, `&`, `|`, newline or substitution outside quotes) whose only child
 * is us. A script that backgrounds wfe and carries on (`wfe serve & node --test`) wakes for its
 * other children; its wake-ups are not a forwarded SIGINT.
 */
function onlyRunsUs(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv[1] !== '-c' || argv[2] === undefined) return false;
    const unquoted = argv[2].replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '');
    if (/[;&|\n`]|\$\(/.test(unquoted)) return false;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
    return children.length === 1 && Number(children[0]) === process.pid;
  } catch {
    return false;
  }
}

function proc(pid: number): ProcFacts | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const switches = [...status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
    return { comm, ppid, switches };
  } catch {
    return undefined;
  }
}

/** Whether npm started this process (npx, npm exec, npm run): npm sets npm_lifecycle_event for its scripts. */
export const startedByNpm = (env: NodeJS.ProcessEnv = process.env): boolean => env.npm_lifecycle_event !== undefined;

/**
 * Calls `onGone` once when the npm process that started this one dies (`'exited'`) or is
 * interrupted (`'interrupted'`: a SIGINT npm forwarded to its shell). Returns the stop.
 */
export function watchStarter(onGone: (why: 'exited' | 'interrupted') => void): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => {};
  const first = proc(parent);
  // npm's shell between npm and us (dash does not exec): watch it and the npm above it.
  const shell = first && SHELLS.has(first.comm) ? first : undefined;
  // Its wake-ups mean a SIGINT only when it has nothing to do but wait for us.
  const wakeIsSignal = shell !== undefined && onlyRunsUs(parent);
  // The shell's count now: it has slept in wait() since it started us (node takes far longer
  // to start than the shell to fork), and a SIGINT sent as soon as the banner shows must count.
  let switches = shell?.switches;
  let settleUntil = 0;
  let done = false;
  const fire = (why: 'exited' | 'interrupted') => {
    if (done) return;
    done = true;
    clearInterval(timer);
    process.off('SIGCONT', resettle);
    onGone(why);
  };
  // Stopped and continued (Ctrl+Z, fg): the shell saw our stop and woke for it; not a SIGINT.
  const resettle = () => {
    switches = undefined;
    settleUntil = Date.now() + 4 * POLL_MS;
  };
  process.on('SIGCONT', resettle);
  const timer = setInterval(() => {
    if (process.ppid !== parent) return fire('exited');
    if (!shell) return;
    const now = proc(parent);
    if (!now || now.ppid !== shell.ppid) return fire('exited');
    if (!wakeIsSignal) return;
    if (Date.now() < settleUntil || switches === undefined) {
      switches = now.switches;
      return;
    }
    if (now.switches !== switches) fire('interrupted');
  }, POLL_MS);
  timer.unref();
  return () => {
    done = true;
    clearInterval(timer);
    process.off('SIGCONT', resettle);
  };
}
