/*
 * Case folding by the runtime's full case mappings: lower, upper, lower. Upper-casing applies
 * the one-to-many mappings of SpecialCasing (ß → SS, ŉ → ʼN, ﬁ → FI), which lower-casing alone
 * does not; the first lower-casing brings ẞ (capital sharp s) to ß so that it folds to ss too.
 */
function foldCase(text: string): string {
  return text.toLowerCase().toUpperCase().toLowerCase();
}

// After upper- and lower-casing, a word-final sigma is ς; case folding has one sigma.
const FINAL_SIGMA = /ς/gu;
// Nonspacing marks after decomposition: accents, diaeresis, cedilla, tilde, dots above/below…
const NONSPACING_MARK = /\p{Mn}/gu;

/**
 * The form in which plant names are compared when a person looks one up: what they mean
 * regardless of case and accents. Both the stored names and the text searched for go through
 * it, so `fougere` finds `Fougère`, `MONSTERA` finds `Monstera deliciosa` and `ß` finds `SS`:
 *
 * 1. full case folding (foldCase above; ς as σ);
 * 2. compatibility decomposition (NFKD: é → e + ◌́, ﬁ → fi, full-width Ａ → A, ² → 2);
 * 3. every nonspacing mark (Unicode category Mn) removed: the accents of Latin, Greek and
 *    Cyrillic letters, and also the nonspacing vowel signs and viramas of Indic scripts;
 * 4. canonical composition (NFC) of what remains, so Hangul syllables stay whole.
 *
 * Nothing else changes: white space, punctuation and digits are kept as they are, so a text
 * is found exactly where its folded form occurs in the folded name. The result may be longer
 * than the name (ß → ss) and is empty when the text held only nonspacing marks.
 */
export function plantNameKey(text: string): string {
  return foldCase(text).replace(FINAL_SIGMA, 'σ').normalize('NFKD').replace(NONSPACING_MARK, '').normalize('NFC');
}
