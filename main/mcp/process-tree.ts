// Stopping a server means stopping everything it started: `npx pkg` runs `sh -c` which runs `node`, and
// signalling only the direct child (all the SDK's transport does) leaves the real server orphaned. On POSIX each
// server runs as the leader of its own process group, and the whole group is signalled; a group outlives its
// leader, so this works even after the leader died. Windows has no groups: `taskkill /T` walks the tree.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const pollMs = 50;

/** Sends `signal` to the process group led by `pid`; false when the group no longer exists. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** SIGTERM to the whole tree, then SIGKILL to whatever is left after `graceMs`. Resolves when it is gone. */
export async function terminateProcessTree(pid: number, graceMs: number): Promise<void> {
  if (process.platform === 'win32') {
    await taskkillTree(pid);
    return;
  }
  if (!signalProcessGroup(pid, 'SIGTERM')) return;
  if (await waitUntil(() => !isProcessGroupAlive(pid), graceMs)) return;
  signalProcessGroup(pid, 'SIGKILL');
  await waitUntil(() => !isProcessGroupAlive(pid), 2_000);
}

/** The synchronous last resort for process exit: no time to be graceful. */
export function killProcessTreeNow(pid: number): void {
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Whether any process of the group still runs. Zombies do not count: where PID 1 does not reap orphans (some
 * containers) they stay in the process table, dead, until the container ends.
 */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  return listProcesses().some((entry) => entry.pgid === pgid && entry.state !== 'Z' && entry.state !== 'X');
}

/** Whether a process runs (zombies count as gone, as above). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  const state = readStat(String(pid))?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
}

/** Every process on a Linux machine, from /proc (empty elsewhere). */
export function listProcesses(): ProcessEntry[] {
  if (process.platform !== 'linux') return [];
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readStat(name);
    if (entry) entries.push(entry);
  }
  return entries;
}

function readStat(pid: string): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited while we looked
  }
  // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid: Number(pid), state: fields[0] ?? '', ppid: Number(fields[1]), pgid: Number(fields[2]) };
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
  return true;
}

function taskkillTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.on('error', () => resolve());
    killer.on('close', () => resolve());
  });
}
