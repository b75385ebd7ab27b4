/**
 * How a first build shares its reads between the two threads it has.
 *
 * A first build reads every file whole. Big files are parsed on the parse worker while this
 * thread writes their rows (parse-runner.ts); read one after the other, that leaves this thread
 * idle about half the time (measured on 856 MB of stores: the worker parsed for 7.5 s, this
 * thread wrote for 3.8 s). So the build runs two lanes at once: the worker's, and one read on
 * this thread, which writes both lanes' rows and parses its own files between them. Balanced,
 * this thread parses a share s of the bytes with s·P + W = (1 − s)·P (P the parsing, W the
 * writing): s = (P − W) / 2P, about a quarter.
 */

/** The share of the big files' bytes a first build parses on this thread (see above). */
export const IN_THREAD_SHARE = 0.25;

export interface LaneFile {
  path: string;
  size: number;
}

/**
 * The files to read on this thread (`inThread`: the small ones, which the worker does not take,
 * and big ones up to IN_THREAD_SHARE of the big files' bytes, largest first that fit) and those
 * to read on the worker (`onWorker`, the rest, largest first). The largest file always goes to
 * the worker: it is the one whose parsing takes longest.
 */
export function firstBuildLanes<F extends LaneFile>(files: readonly F[], workerTakes: (size: number) => boolean): { inThread: F[]; onWorker: F[] } {
  const big = files.filter((file) => workerTakes(file.size)).sort((a, b) => b.size - a.size);
  const small = files.filter((file) => !workerTakes(file.size));
  const budget = IN_THREAD_SHARE * big.reduce((sum, file) => sum + file.size, 0);
  const inThread: F[] = [];
  const onWorker: F[] = [];
  let bytes = 0;
  big.forEach((file, i) => {
    if (i > 0 && bytes + file.size <= budget) {
      inThread.push(file);
      bytes += file.size;
    } else onWorker.push(file);
  });
  return { inThread: [...inThread, ...small], onWorker };
}
