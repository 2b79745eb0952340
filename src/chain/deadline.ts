import { ChainUnavailableError } from './chain.errors';

/** `work`, or a ChainUnavailableError once `ms` have passed without its answer. */
export async function withinChainDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new ChainUnavailableError(`The ENS chain could not be read within ${ms / 1000} s; try again shortly`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
