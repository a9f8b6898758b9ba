import type { Logger } from "../logger.ts";

/**
 * Runs `step` again and again while it finds work, and every `pollMs` otherwise (other instances
 * may have queued some). `wake` looks at once; `stop` lets the step in hand finish.
 */
export function createBackgroundLoop(options: {
  name: string;
  /** Does one round of work; answers how many items it handled (0: nothing to do now). */
  step: () => Promise<number>;
  pollMs: number;
  logger: Logger;
}) {
  let loop: Promise<void> | undefined;
  let isStopping = false;
  let wakeUp: (() => void) | undefined;

  return {
    name: options.name,

    wake() {
      wakeUp?.();
    },

    start() {
      if (loop) return;
      isStopping = false;
      loop = (async () => {
        while (!isStopping) {
          let handled = 0;
          try {
            handled = await options.step();
          } catch (error) {
            options.logger.error(
              { err: error },
              `${options.name} failed; retrying at the next poll`,
            );
          }
          if (handled === 0 && !isStopping) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, options.pollMs);
              wakeUp = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wakeUp = undefined;
          }
        }
      })();
    },

    async stop(): Promise<void> {
      isStopping = true;
      wakeUp?.();
      await loop;
      loop = undefined;
    },
  };
}

/**
 * Work done on a clock rather than found in a queue: `run` at start and then every `everyMs`,
 * on every instance (the work itself makes sure that once is once: a unique row, a lock).
 */
export function createPeriodicLoop(options: {
  name: string;
  run: () => Promise<unknown>;
  everyMs: number;
  logger: Logger;
}) {
  return createBackgroundLoop({
    name: options.name,
    step: async () => {
      await options.run();
      return 0;
    },
    pollMs: options.everyMs,
    logger: options.logger,
  });
}
