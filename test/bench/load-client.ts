import { fork, type ChildProcess } from 'node:child_process';
import type { LoadJob, LoadResult } from './load-generator.js';
import { benchEntry } from './compiled.js';

/** One HTTP endpoint under load. */
export interface BenchTarget {
  name: string;
  label: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface LoadSettings {
  connections: number;
  rounds: number;
  durationSec: number;
  warmupSec: number;
  /** Idle time between two measurements, so in-flight work of one target never bleeds into the next. */
  pauseMs: number;
  /**
   * With a group: each round measures each of its targets as this many short slices (durationSec / slices
   * seconds each), interleaved in sliceOrder, instead of one block each. 1 = one block each.
   */
  slices?: number;
  /** Idle time between two slices. */
  slicePauseMs?: number;
}

export interface RoundSample {
  round: number;
  rps: number;
  responses: number;
  elapsedMs: number;
}

export interface TargetSamples {
  target: BenchTarget;
  rounds: RoundSample[];
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
}

const GENERATOR = benchEntry('load-generator');

/** Drives the load-generator child over IPC, one job at a time. */
export class LoadClient {
  private nextId = 1;
  private readonly pending = new Map<number, (r: LoadResult) => void>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (result: LoadResult) => {
      this.pending.get(result.id)?.(result);
      this.pending.delete(result.id);
    });
  }

  static start(): LoadClient {
    // The child runs the same way as this process: compiled, or the TypeScript source under tsx.
    const child = fork(GENERATOR.path, [], { execArgv: GENERATOR.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new LoadClient(child);
  }

  run(target: BenchTarget, durationSec: number, connections: number): Promise<LoadResult> {
    const job: LoadJob = {
      id: this.nextId++,
      url: target.url,
      method: target.method,
      headers: target.headers,
      body: target.body,
      connections,
      durationSec,
    };
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited with code ${code}`));
      this.child.once('exit', onExit);
      this.pending.set(job.id, (result) => {
        this.child.off('exit', onExit);
        if (result.error) reject(new Error(`autocannon failed on ${target.name}: ${result.error}`));
        else resolve(result);
      });
      this.child.send(job);
    });
  }

  close(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.disconnect();
    });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The order of one round. Without a pair: every target, starting one further along each round, so that no
 * target is always measured first (or right after the same neighbour). With a pair (baseline, headline):
 * those two back to back at the start of every round, alternating which goes first (ABBA across rounds),
 * so the ratio that matters compares two measurements a few seconds apart rather than up to a whole round
 * apart while the machine's speed drifts; the other targets follow, rotating.
 */
export function roundOrder(targets: BenchTarget[], round: number, pair?: readonly [string, string]): BenchTarget[] {
  const rotate = (list: BenchTarget[]) => list.map((_, i) => list[(round + i) % list.length]);
  if (!pair) return rotate(targets);
  const first = targets.find((t) => t.name === pair[0]);
  const second = targets.find((t) => t.name === pair[1]);
  if (!first || !second || first === second) throw new Error(`pair ${pair.join('/')} must name two different targets`);
  const rest = targets.filter((t) => t !== first && t !== second);
  return [...(round % 2 === 0 ? [first, second] : [second, first]), ...(rest.length ? rotate(rest) : [])];
}

/**
 * Which target of a group (0 = the baseline) each slice of a round measures: forward, then backward, then
 * forward again (for two: 0 1 1 0 0 1 ...), so that each leads as often as it follows and a steady drift of the
 * machine's speed cancels out; mirrored on odd rounds. On this kind of shared 2-core machine the speed drifts by
 * several percent within seconds: two 5-second blocks measured one after the other disagreed by up to 15% for
 * identical handlers.
 */
export function sliceOrder(sides: number, slices: number, round: number): number[] {
  const order: number[] = [];
  for (let block = 0; block < slices; block++) for (let k = 0; k < sides; k++) order.push(block % 2 ? sides - 1 - k : k);
  return round % 2 ? order.map((side) => sides - 1 - side) : order;
}

/** Warms every target up, then measures them round by round in the order roundOrder gives. */
export async function runInterleaved(
  client: LoadClient,
  targets: BenchTarget[],
  settings: LoadSettings,
  log: (line: string) => void,
  /** The baseline, then the targets compared with it most closely: back to back first in every round. */
  group?: readonly string[],
): Promise<Map<string, TargetSamples>> {
  for (const target of targets) {
    log(`warm-up ${target.name} (${settings.warmupSec}s)`);
    await client.run(target, settings.warmupSec, settings.connections);
    await sleep(settings.pauseMs);
  }
  const samples = new Map<string, TargetSamples>(
    targets.map((t) => [t.name, { target: t, rounds: [], latencies: [], non2xx: 0, errors: 0, timeouts: 0 }]),
  );
  const record = (target: BenchTarget, round: number, results: LoadResult[]) => {
    const s = samples.get(target.name)!;
    const responses = results.reduce((n, r) => n + r.responses, 0);
    const elapsedMs = results.reduce((n, r) => n + r.elapsedMs, 0);
    const rps = responses / (elapsedMs / 1000);
    s.rounds.push({ round: round + 1, rps, responses, elapsedMs });
    for (const result of results) {
      for (const l of result.latencies) s.latencies.push(l);
      s.non2xx += result.non2xx;
      s.errors += result.errors;
      s.timeouts += result.timeouts;
    }
    const sliced = results.length > 1 ? ` (${results.length} slices)` : '';
    log(`round ${round + 1}/${settings.rounds} ${target.name}: ${rps.toFixed(0)} req/s${sliced}`);
  };
  const sides = (group ?? []).map((name) => targets.find((t) => t.name === name));
  if (sides.some((t) => !t) || new Set(sides).size !== sides.length) throw new Error(`group ${group?.join('/')} must name different targets`);
  const slices = sides.length >= 2 ? Math.max(1, Math.floor(settings.slices ?? 1)) : 1;
  for (let round = 0; round < settings.rounds; round++) {
    let order = roundOrder(targets, round, sides.length >= 2 ? [group![0], group![1]] : undefined);
    if (slices > 1) {
      const results: LoadResult[][] = sides.map(() => []);
      for (const side of sliceOrder(sides.length, slices, round)) {
        results[side].push(await client.run(sides[side]!, settings.durationSec / slices, settings.connections));
        await sleep(settings.slicePauseMs ?? settings.pauseMs);
      }
      sides.forEach((target, i) => record(target!, round, results[i]));
      await sleep(settings.pauseMs);
      order = order.filter((t) => !sides.includes(t));
    }
    for (const target of order) {
      record(target, round, [await client.run(target, settings.durationSec, settings.connections)]);
      await sleep(settings.pauseMs);
    }
  }
  return samples;
}
