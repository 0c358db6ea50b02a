/** A knowledge item of the town square: its canonical sentence and the markers that reveal it in text. */
export interface TownItem {
  id: 'fact' | 'rumor' | 'secret';
  /** The sentence agents who know the item start with. */
  text: string;
  /** All of these (case-insensitive) in one message mean the message carries the item. */
  markers: readonly string[];
}

/** The three items: a true fact, a false rumour, and one agent's secret. */
export const TOWN_ITEMS: readonly TownItem[] = [
  { id: 'fact', text: 'The old mill bridge will close for repairs next Monday.', markers: ['mill bridge'] },
  {
    id: 'rumor',
    text: 'The mayor is quietly selling the town park to a hotel developer.',
    markers: ['mayor', 'park'],
  },
  {
    id: 'secret',
    text: 'I am the one who has been leaving anonymous notes in the library books.',
    markers: ['anonymous notes'],
  },
];

/** True if `text` carries `item` (every marker present, case-insensitive). */
export function mentions(text: string, item: TownItem): boolean {
  const lower = text.toLowerCase();
  return item.markers.every((m) => lower.includes(m));
}
