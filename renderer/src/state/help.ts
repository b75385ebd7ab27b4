import { createSignal } from 'solid-js';

/** The keyboard help sheet: one for the whole console, opened with `?` in every area. */
const [helpOpen, setHelpOpen] = createSignal(false);

export { helpOpen };
export const openHelp = () => setHelpOpen(true);
export const closeHelp = () => setHelpOpen(false);
export const toggleHelp = () => setHelpOpen(!helpOpen());

/**
 * The glossary sheet: reachable from every area (the status bar's Glossary button, the help
 * sheet, any explained term). Holds the term to scroll to, or null when closed.
 */
const [glossaryTerm, setGlossaryTerm] = createSignal<string | null>(null);

export const glossaryOpen = () => glossaryTerm() !== null;
export { glossaryTerm };
export const openGlossary = (term = '') => {
  setHelpOpen(false);
  setGlossaryTerm(term);
};
export const closeGlossary = () => setGlossaryTerm(null);
