/**
 * `npm run bench`: every bench/<area>.bench.ts section, run in one process, printed together.
 * Figures are ratios against baselines measured in the same run; nothing here is a test.
 *
 * Each figure is also printed beside the same figure of an earlier run: `.bench/reference.json`
 * (a quiet-machine run saved with `--save-reference`) when there is one, else the previous run
 * (`.bench/previous.json`, the last `.bench/results.json`, which keeps every section's latest figures,
 * each with its date, so running one section alone compares it with that section's last run). A figure more than 25 % worse, in the
 * direction that matters for it, is flagged and listed at the end.
 *
 *   npm run bench [-- <section prefix>…] [--sizes 1000,10000,100000] [--save-reference]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startWorkersFromSources } from '../main/core/platform/util/built-worker';
import { sourceWorkerByName } from '../testing/workers/source-worker';
import { createReport, failureLines, mergeResults, regressionLines, type Baseline, type BenchOptions, type BenchReport, type Figure } from './report';

const benchDir = import.meta.dirname;
const out = path.join(benchDir, '..', '.bench');
const files = { results: path.join(out, 'results.json'), previous: path.join(out, 'previous.json'), reference: path.join(out, 'reference.json') };

const args = process.argv.slice(2);
const options: BenchOptions = {};
const only: string[] = [];
let saveReference = false;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === '--save-reference') saveReference = true;
  else if (arg === '--sizes' || arg.startsWith('--sizes=')) {
    const value = arg === '--sizes' ? args[++i] : arg.slice('--sizes='.length);
    const sizes = (value ?? '').split(',').map((s) => Number(s.replace(/_/g, '')));
    if (sizes.length < 2 || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
      console.error(`--sizes wants two or more whole numbers, comma-separated (got ${JSON.stringify(value)})`);
      process.exit(2);
    }
    options.sizes = sizes;
  } else if (arg.startsWith('--')) {
    console.error(`unknown option ${arg}`);
    process.exit(2);
  } else only.push(arg);
}

const sections = fs
  .readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

function readResults(file: string, label: string): Baseline | null {
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { at: string; figures: Figure[] };
    return { label: `${label} (${saved.at})`, at: saved.at, figures: saved.figures.map((f) => ({ ...f, at: f.at ?? saved.at })) };
  } catch {
    return null;
  }
}

// The last run becomes the previous one before this run overwrites it.
fs.mkdirSync(out, { recursive: true });
if (fs.existsSync(files.results)) fs.copyFileSync(files.results, files.previous);
const baseline = readResults(files.reference, 'reference') ?? readResults(files.previous, 'previous run');

// The core runs from its TypeScript sources here: its workers (clustering, the tier merge, receipt hashing) are
// started from sources too, so the figures are those of the built app, where they run off the main thread.
startWorkersFromSources(sourceWorkerByName);

const report = createReport(console.log, baseline);

/** This process's heap and the resources keeping its event loop busy (timers, handles), in one line. */
function processState(): string {
  const { heapUsed, rss } = process.memoryUsage();
  const resources = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) resources.set(kind, (resources.get(kind) ?? 0) + 1);
  const listed = [...resources].map(([kind, n]) => `${kind} ${n}`).join(', ') || 'none';
  return `heap ${(heapUsed / 2 ** 20).toFixed(0)} MiB, RSS ${(rss / 2 ** 20).toFixed(0)} MiB, load average ${os.loadavg()[0]!.toFixed(2)}; active resources: ${listed}`;
}
const load = os.loadavg().map((l) => l.toFixed(2)).join(', ');
console.log(`Swarm Knowledge Console benchmarks — ${new Date().toISOString()} — node ${process.version}, ${os.cpus().length} cores, load average ${load}`);
console.log(baseline ? `Compared with the ${baseline.label}; more than 25 % worse is flagged.` : 'No earlier results in .bench/: nothing to compare with yet.');
for (const file of sections) {
  const module = (await import(pathToFileURL(path.join(benchDir, file)).href)) as { run(report: BenchReport, options: BenchOptions): Promise<void> };
  // Sections share this process: what the ones before left in it (heap, timers, handles) is said at each start.
  console.log(`\n[${file}] starts with ${processState()}`);
  try {
    await module.run(report, options);
  } catch (error) {
    report.note(`${file} failed: ${(error as Error).stack ?? error}`);
    process.exitCode = 1;
  }
}
const finished = new Date().toISOString();
const run = { at: finished, loadAverage: os.loadavg(), notes: report.notes, failures: report.failures };
// results.json keeps the figures of sections this run did not measure (each with its date), so a run of one
// section is compared with the last run of that section, whatever ran in between.
const earlier = readResults(files.previous, 'previous run')?.figures ?? [];
const results = JSON.stringify({ ...run, figures: mergeResults(earlier, report.figures, finished) }, null, 2) + '\n';
fs.writeFileSync(files.results, results);
console.log(`\nResults written to .bench/results.json (with the figures of sections this run did not measure; the results before: .bench/previous.json)`);
if (saveReference) {
  fs.writeFileSync(files.reference, JSON.stringify({ ...run, figures: report.figures.map((f) => ({ ...f, at: finished })) }, null, 2) + '\n');
  console.log('Saved as the reference (.bench/reference.json): later runs compare with it until it is removed or replaced.');
}
for (const line of regressionLines(report.regressions)) console.error(line);
// A section whose count is 0 or whose figure is NaN measured nothing: the run fails and names it.
const failed = failureLines(report.failures);
for (const line of failed) console.error(line);
if (failed.length > 0) process.exitCode = 1;
