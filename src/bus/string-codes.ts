/**
 * Small integer codes for the strings messages carry (kinds, items, channel names), so a
 * message is a row of numbers. A bus has one table; codes are never reused or removed, and
 * a world uses a handful of distinct strings.
 */
export class StringCodes {
  private readonly codes = new Map<string, number>();
  private readonly strings: string[] = [];

  /** The code of `s`, assigned on first use. */
  code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.strings.length;
      this.strings.push(s);
      this.codes.set(s, c);
    }
    return c;
  }

  /** The string of code `c`. */
  string(c: number): string {
    return this.strings[c];
  }
}
