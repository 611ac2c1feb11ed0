import type { Peril } from './claims-facts.js';
import type { Timeline } from './timeline.js';

/** Repair rates in EUR per cm² of damage, plus a fixed call-out charge. */
export interface PriceList {
  readonly name: string;
  readonly callOut: number;
  readonly perCm2: Readonly<Record<Peril, number>>;
}

/** The repairers' price lists. The list was revised on 8 March. */
export const PRICE_LISTS: Timeline<PriceList> = [
  {
    from: '0000-01-01',
    value: {
      name: 'PL-2026-01',
      callOut: 40,
      perCm2: { hail: 1.1, collision: 1.3, storm: 1.2, fire: 1.6, flood: 2.0 },
    },
  },
  {
    from: '2026-03-08',
    value: {
      name: 'PL-2026-03',
      callOut: 45,
      perCm2: { hail: 1.15, collision: 1.35, storm: 1.25, fire: 1.65, flood: 2.1 },
    },
  },
];
