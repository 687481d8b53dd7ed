/** One step of a request path timed in-process, without HTTP, to explain a gap the load test shows. */
export interface Stage {
  name: string;
  run: () => Promise<unknown>;
}

export interface StageTiming {
  name: string;
  /** Process CPU (user + system) per operation: what the step costs the API process. */
  cpuUs: number;
  /** Wall time per operation at the given concurrency: includes waiting on PostgreSQL/Redis. */
  wallUs: number;
}

/** Runs `ops` operations with `concurrency` in flight, after a warm-up, like requests on one process. */
export async function timeStage(stage: Stage, ops: number, concurrency: number): Promise<StageTiming> {
  const warmup = Math.ceil(ops / 4);
  const drive = async (count: number) => {
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started++ < count) await stage.run();
      }),
    );
  };
  await drive(warmup);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await drive(ops);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { name: stage.name, cpuUs: (cpu.user + cpu.system) / ops, wallUs: (wallMs * 1000) / ops };
}

export function formatStages(rows: StageTiming[]): string {
  const width = Math.max(5, ...rows.map((r) => r.name.length));
  const head = `${'stage'.padEnd(width)}  ${'cpu us/op'.padStart(9)}  ${'wall us/op'.padStart(10)}`;
  const lines = rows.map(
    (r) => `${r.name.padEnd(width)}  ${r.cpuUs.toFixed(0).padStart(9)}  ${r.wallUs.toFixed(0).padStart(10)}`,
  );
  return [head, `${'-'.repeat(width)}  ${'-'.repeat(9)}  ${'-'.repeat(10)}`, ...lines].join('\n');
}
