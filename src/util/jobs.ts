/**
 * Something the composition root (src/compose.ts) starts once the service is built and stops at
 * shutdown: a timer, a poller, a background writer. Nothing starts itself when constructed.
 */
export interface Job {
  readonly name: string;
  start(): void | Promise<unknown>;
  stop(): void | Promise<void>;
}

export const job = (name: string, start: Job['start'], stop: Job['stop']): Job => ({ name, start, stop });

/** Starts the jobs in order; a failure stops those already started, then throws. */
export async function startJobs(jobs: Job[]): Promise<() => Promise<void>> {
  const started: Job[] = [];
  const stopAll = async () => {
    for (const j of started.splice(0).reverse()) await j.stop();
  };
  try {
    for (const j of jobs) {
      await j.start();
      started.push(j);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return stopAll;
}
