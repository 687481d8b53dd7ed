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
   * Each round measures each target of the group as this many short slices (durationSec / slices seconds each),
   * interleaved in sliceOrder. 1 = one block each.
   */
  slices: number;
  /** Idle time between two slices (pauseMs when there is one slice each). */
  slicePauseMs: number;
}

export interface RoundSample {
  round: number;
  rps: number;
  responses: number;
  elapsedMs: number;
  /**
   * CPU time of this process (the servers under test; the load generator is a child) per response, in µs. Less
   * swayed than req/s by other work on the machine, which takes wall time, not this process's CPU time.
   */
  cpuUsPerResponse: number;
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
    const child = fork(GENERATOR.path, [], {
      execArgv: GENERATOR.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
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

/** A load run and the CPU time this process spent while it ran. */
type Measured = LoadResult & { cpuUs: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The targets of one round outside the group, starting one further along each round, so that no target is always
 * measured first (or right after the same neighbour).
 */
export function roundOrder(targets: BenchTarget[], round: number): BenchTarget[] {
  return targets.map((_, i) => targets[(round + i) % targets.length]);
}

/** The group's targets, in its order (the baseline first), and the others. */
export function splitGroup(
  targets: BenchTarget[],
  group: readonly string[],
): { sides: BenchTarget[]; rest: BenchTarget[] } {
  const sides = group.map((name) => targets.find((t) => t.name === name));
  if (sides.some((t) => !t) || new Set(sides).size !== sides.length)
    throw new Error(`group ${group.join('/')} must name different targets`);
  return { sides: sides as BenchTarget[], rest: targets.filter((t) => !sides.includes(t)) };
}

/**
 * Which target of a group (0 = the baseline) each slice of a round measures: forward, then backward, then
 * forward again (for two: 0 1 1 0 0 1 ...), so that each leads as often as it follows and a steady drift of the
 * machine's speed cancels out; mirrored on odd rounds. With one slice each, a pair is measured back to back,
 * alternating which goes first. On this kind of shared 2-core machine the speed drifts by several percent
 * within seconds: two 5-second blocks measured one after the other disagreed by up to 15% for identical handlers.
 */
export function sliceOrder(sides: number, slices: number, round: number): number[] {
  const order: number[] = [];
  for (let block = 0; block < slices; block++)
    for (let k = 0; k < sides; k++) order.push(block % 2 ? sides - 1 - k : k);
  return round % 2 ? order.map((side) => sides - 1 - side) : order;
}

/**
 * Warms every target up, then measures them round by round: the group first, in the slices sliceOrder gives,
 * then the others in the order roundOrder gives.
 */
export async function runInterleaved(
  client: LoadClient,
  targets: BenchTarget[],
  settings: LoadSettings,
  log: (line: string) => void,
  /** The baseline, then the targets compared with it most closely. */
  group: readonly string[] = [],
): Promise<Map<string, TargetSamples>> {
  const { sides, rest } = splitGroup(targets, group);
  for (const target of targets) {
    log(`warm-up ${target.name} (${settings.warmupSec}s)`);
    await client.run(target, settings.warmupSec, settings.connections);
    await sleep(settings.pauseMs);
  }
  const samples = new Map<string, TargetSamples>(
    targets.map((t) => [t.name, { target: t, rounds: [], latencies: [], non2xx: 0, errors: 0, timeouts: 0 }]),
  );
  const record = (target: BenchTarget, round: number, results: Measured[]) => {
    const s = samples.get(target.name)!;
    const responses = results.reduce((n, r) => n + r.responses, 0);
    const elapsedMs = results.reduce((n, r) => n + r.elapsedMs, 0);
    const rps = responses / (elapsedMs / 1000);
    const cpuUsPerResponse = results.reduce((n, r) => n + r.cpuUs, 0) / responses;
    s.rounds.push({ round: round + 1, rps, responses, elapsedMs, cpuUsPerResponse });
    for (const result of results) {
      for (const l of result.latencies) s.latencies.push(l);
      s.non2xx += result.non2xx;
      s.errors += result.errors;
      s.timeouts += result.timeouts;
    }
    const sliced = results.length > 1 ? ` (${results.length} slices)` : '';
    log(`round ${round + 1}/${settings.rounds} ${target.name}: ${rps.toFixed(0)} req/s${sliced}`);
  };
  const slices = Math.max(1, Math.floor(settings.slices));
  const slicePauseMs = slices > 1 ? settings.slicePauseMs : settings.pauseMs;
  const measure = async (target: BenchTarget, durationSec: number): Promise<Measured> => {
    const before = process.cpuUsage();
    const result = await client.run(target, durationSec, settings.connections);
    const cpu = process.cpuUsage(before);
    return { ...result, cpuUs: cpu.user + cpu.system };
  };
  for (let round = 0; round < settings.rounds; round++) {
    const results: Measured[][] = sides.map(() => []);
    for (const side of sliceOrder(sides.length, slices, round)) {
      results[side].push(await measure(sides[side], settings.durationSec / slices));
      await sleep(slicePauseMs);
    }
    sides.forEach((target, i) => record(target, round, results[i]));
    for (const target of roundOrder(rest, round)) {
      record(target, round, [await measure(target, settings.durationSec)]);
      await sleep(settings.pauseMs);
    }
  }
  return samples;
}
