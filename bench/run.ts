/**
 * `npm run bench`: every bench/<area>.bench.ts section, run in one process, printed together.
 * Figures are ratios against baselines measured in the same run; nothing here is a test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createReport, failureLines, type BenchReport } from './report';

const benchDir = import.meta.dirname;
const only = process.argv.slice(2);
const sections = fs
  .readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

const report = createReport();
console.log(`Swarm Knowledge Console benchmarks — ${new Date().toISOString()} — node ${process.version}, ${(await import('node:os')).cpus().length} cores`);
for (const file of sections) {
  const module = (await import(pathToFileURL(path.join(benchDir, file)).href)) as { run(report: BenchReport): Promise<void> };
  try {
    await module.run(report);
  } catch (error) {
    report.note(`${file} failed: ${(error as Error).stack ?? error}`);
    process.exitCode = 1;
  }
}
const out = path.join(benchDir, '..', '.bench');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify({ at: new Date().toISOString(), figures: report.figures, notes: report.notes, failures: report.failures }, null, 2) + '\n');
console.log(`\nResults written to .bench/results.json`);
// A section whose count is 0 or whose figure is NaN measured nothing: the run fails and names it.
const failed = failureLines(report.failures);
for (const line of failed) console.error(line);
if (failed.length > 0) process.exitCode = 1;
