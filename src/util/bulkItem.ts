import { AppError } from '../errors';

/** Runs a per-item check; in a bulk call an error names the item. */
export function at<T>(bulk: boolean, i: number, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!bulk || !(err instanceof AppError)) throw err;
    const details = (err.details ?? []).map((d) => ({ ...d, path: d.path.replace(/^\/body/, `/body/${i}`) }));
    throw new AppError(err.status, err.code, `Item ${i}: ${err.message}`, details.length ? details : undefined);
  }
}
