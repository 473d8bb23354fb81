/** How many jobs this process is running: the CLI's entry asks before it exits on a closed output pipe. */
let running = 0;

export const jobsRunning = (): boolean => running > 0;

/** Counts a job as running until the returned function is called. */
export function jobRunning(): () => void {
  running++;
  let done = false;
  return () => {
    if (!done) running--;
    done = true;
  };
}
