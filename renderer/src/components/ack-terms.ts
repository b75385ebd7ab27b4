import { glossary } from '../state/glossary';

/**
 * One meaning per word across the console (issue 13 item 2). "Acknowledged" is only the plugin's
 * effective `acknowledged_count`; any answer at all is "answered". The words live in the glossary
 * (state/glossary.ts); these names stay for the labels that carry them as their tooltip.
 */
export const ACKNOWLEDGED_RULE = glossary('acknowledged').text;

export const ANSWERED_RULE = glossary('answered').text;

export const DERIVED_RULE = glossary('derived').text;
