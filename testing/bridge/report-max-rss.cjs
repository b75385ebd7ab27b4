// Preloaded into a child process under test (NODE_OPTIONS=--require …): prints its peak resident
// memory to stderr as it exits, so a test can bound what a process held at its worst.
process.on('exit', () => {
  require('node:fs').writeSync(2, `\nmax-rss-kib=${process.resourceUsage().maxRSS}\n`);
});
