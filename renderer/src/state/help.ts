import { createSignal } from 'solid-js';

/** The keyboard help sheet: one for the whole console, opened with `?` in every area. */
const [helpOpen, setHelpOpen] = createSignal(false);

export { helpOpen };
export const openHelp = () => setHelpOpen(true);
export const closeHelp = () => setHelpOpen(false);
export const toggleHelp = () => setHelpOpen(!helpOpen());
