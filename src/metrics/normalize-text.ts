import unhomoglyph from 'unhomoglyph';

/**
 * Format characters that are invisible in print (soft hyphen, zero-width space and joiners,
 * word joiner, byte-order mark, Mongolian vowel separator): removed before comparing, so a
 * secret split by one still matches.
 */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]/g;

/**
 * How texts are compared: NFKC (fullwidth and compatibility forms to their plain letters),
 * invisible format characters removed, lowercase, letters and digits only, every character
 * mapped to its Unicode TR39 confusables skeleton (`unhomoglyph`, from Unicode's
 * confusables.txt: a Cyrillic `а` and a Latin `a` become the same), single spaces. The result is for comparing, not
 * for reading (`m` becomes `rn`).
 */
export function normalizeText(s: string): string {
  // punctuation first (the skeleton maps some of it to letters); the skeleton before and after
  // lowercasing, since it differs by case (a Greek capital Eta is an H, its small form no h)
  const words = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, ' ');
  const plain = words(s.normalize('NFKC').replace(INVISIBLE, ''));
  return words(unhomoglyph(unhomoglyph(plain).toLowerCase()).toLowerCase()).trim();
}
