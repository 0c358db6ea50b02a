/** Sotopia-EVAL's seven dimensions with their integer ranges and what they measure. */
export const DIMENSIONS = {
  believability: {
    min: 0,
    max: 10,
    about: 'does the character act naturally, consistently with its profile?',
  },
  relationship: {
    min: -5,
    max: 5,
    about: 'did the interaction improve (positive) or harm (negative) its relationship with the other?',
  },
  knowledge: { min: 0, max: 10, about: 'did it gain new, important information?' },
  secret: {
    min: -10,
    max: 0,
    about:
      'did it reveal its secret or secretive intentions (0: kept them; -10: revealed a critical secret)?',
  },
  social_rules: { min: -10, max: 0, about: 'did it violate social norms, moral rules or laws (0: none)?' },
  financial_and_material_benefits: {
    min: -5,
    max: 5,
    about: 'did it gain (positive) or lose (negative) money or material benefits?',
  },
  goal: { min: 0, max: 10, about: 'how far did it achieve its goal?' },
} as const;

/** A dimension name. */
export type Dimension = keyof typeof DIMENSIONS;

/** The dimensions in Sotopia's order. */
export const DIMENSION_NAMES = Object.keys(DIMENSIONS) as Dimension[];
