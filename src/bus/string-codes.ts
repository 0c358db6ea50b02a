/**
 * Small integer codes for the strings messages carry (kinds, items, channel names), so a
 * message is a row of numbers. A bus has one table; codes are never reused or removed, and
 * a world uses a handful of distinct strings.
 */
export class StringCodes {
  private readonly codes = new Map<string, number>();
  private readonly strings: string[] = [];
  // The two strings coded last: a message codes its kind and its item, and a run sends the
  // same few pairs again and again (a string compare is cheaper than a map lookup).
  private last0: string | undefined;
  private code0 = -1;
  private last1: string | undefined;
  private code1 = -1;

  /** The code of `s`, assigned on first use. */
  code(s: string): number {
    if (s === this.last0) return this.code0;
    if (s === this.last1) return this.code1;
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.strings.length;
      this.strings.push(s);
      this.codes.set(s, c);
    }
    this.last1 = this.last0;
    this.code1 = this.code0;
    this.last0 = s;
    this.code0 = c;
    return c;
  }

  /** The string of code `c`. */
  string(c: number): string {
    return this.strings[c];
  }
}
