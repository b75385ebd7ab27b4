/**
 * Human-only commands have no CLI: a script (or an agent) in a shell must not be able to write
 * the stores. Each name answers exit 2 and points to the console window.
 */
export function refusal(name: string): { run(argv: string[]): Promise<number> } {
  return {
    async run() {
      console.error(
        [
          `swarm-console ${name}: this is a human-only command; it runs only from the console window, where a person previews it and confirms it.`,
          'Open the console with `swarm-console` (desktop app), or `swarm-console serve` in an interactive terminal and open the URL it prints,',
          'then use the Hive quarantine view (or "Quarantine…" in a hive entry\'s detail pane).',
        ].join('\n'),
      );
      return 2;
    },
  };
}
