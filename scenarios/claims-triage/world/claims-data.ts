import type { ClaimFacts, PolicyFacts } from './claims-facts.js';
import { clean, photos } from './documents.js';
import { PERIOD_CLAIMS } from './period-claims.js';
import { always } from './timeline.js';

/** Every policy in the claims-triage world. */
export const POLICIES: readonly PolicyFacts[] = [
  { policyId: 'POL-5531', deductible: always(500), coverLimit: 15000, covers: ['hail', 'collision', 'storm', 'fire'] },
  {
    policyId: 'POL-2210',
    // Amended at renewal: the deductible went up.
    deductible: [
      { from: '0000-01-01', value: 250 },
      { from: '2026-03-07', value: 400 },
    ],
    coverLimit: 12000,
    covers: ['collision', 'hail'],
  },
  { policyId: 'POL-3307', deductible: always(300), coverLimit: 10000, covers: ['hail', 'collision', 'fire'] },
  { policyId: 'POL-4412', deductible: always(500), coverLimit: 8000, covers: ['hail', 'storm'] },
  { policyId: 'POL-6120', deductible: always(250), coverLimit: 9000, covers: ['collision', 'storm', 'hail'] },
  {
    policyId: 'POL-7781',
    deductible: always(1000),
    coverLimit: 20000,
    covers: ['fire', 'collision', 'hail', 'storm', 'flood'],
  },
];

/**
 * Every claim in the claims-triage world: the eleven the incident's story is
 * told with (their outputs on the days the tests and the demo use must stay as
 * recorded), then the claims that give a two-week period its classes of
 * failures (`period-claims.ts`).
 */
export const CLAIMS: readonly ClaimFacts[] = [
  {
    claimId: 'CLM-91077',
    policyId: 'POL-5531',
    peril: 'hail',
    holder: 'Marta Lindqvist',
    vehicle: '2021 Skoda Octavia estate',
    status: always('open'),
    description:
      "Hailstorm on the evening of 1 March while the car was parked on the street outside the holder's flat. The roof and bonnet took dozens of dents, the rear windscreen cracked, and the assessor marked the roof panel for replacement. The holder sent the assessor's form by post; it was folded twice before scanning.",
    documents: [
      {
        documentId: 'DOC-77120',
        kind: 'assessor_form',
        // The form was scanned across a fold that hides the thousands separator:
        // OCR v1 reads 205 with low confidence, v2 reads 2050.
        scans: always({ v1: { value: 205, confidence: 0.38 }, v2: { value: 2050, confidence: 0.97 } }),
        assessor: 'J. Achterberg',
        notes: 'Roof panel to be replaced; bonnet repairable by paintless dent removal. Rear screen replaced on site.',
      },
      photos('DOC-77121'),
    ],
  },
  {
    claimId: 'CLM-91002',
    policyId: 'POL-2210',
    peril: 'collision',
    holder: 'Dev Raman',
    vehicle: '2019 Toyota Corolla',
    status: always('open'),
    description:
      'Low-speed collision in a supermarket car park: another driver reversed into the passenger side. Both doors dented, the sill scraped. The other party admitted fault at the scene but is uninsured.',
    documents: [
      {
        documentId: 'DOC-20021',
        kind: 'assessor_form',
        scans: always(clean(840)),
        assessor: 'S. Mwangi',
        notes: 'Both passenger doors to be repaired and resprayed.',
      },
    ],
  },
  {
    claimId: 'CLM-91013',
    policyId: 'POL-3307',
    peril: 'flood',
    holder: 'Aoife Brennan',
    vehicle: '2017 Ford Fiesta',
    status: always('open'),
    description:
      'The car was parked in an underground garage that flooded after a burst water main. Water reached the seats; the engine would not start afterwards.',
    documents: [
      {
        documentId: 'DOC-30131',
        kind: 'assessor_form',
        scans: always(clean(3100, 0.94)),
        assessor: 'P. Novak',
        notes: 'Interior water damage up to the seat cushions; engine hydrolocked.',
      },
    ],
  },
  {
    claimId: 'CLM-91024',
    policyId: 'POL-4412',
    peril: 'hail',
    holder: 'Tomasz Wrona',
    vehicle: '2022 Volvo XC60',
    status: always('open'),
    description:
      'Severe hail on the motorway: every exterior panel dented, both windscreens shattered, two side windows broken. The car was recovered on a flatbed.',
    documents: [
      {
        documentId: 'DOC-40241',
        kind: 'assessor_form',
        scans: always(clean(9800, 0.95)),
        assessor: 'J. Achterberg',
        notes: 'Recommend total-loss review: repair cost may exceed the vehicle value.',
      },
      photos('DOC-40242'),
    ],
  },
  {
    claimId: 'CLM-91035',
    policyId: 'POL-6120',
    peril: 'collision',
    holder: 'Grace Adeyemi',
    vehicle: '2020 Renault Clio',
    status: always('open'),
    description: 'A shopping trolley rolled into the rear bumper in a windy car park, leaving one small dent.',
    documents: [
      {
        documentId: 'DOC-50351',
        kind: 'assessor_form',
        scans: always(clean(60, 0.98)),
        assessor: 'S. Mwangi',
        notes: 'Single dent, rear bumper; paintless repair.',
      },
    ],
  },
  {
    claimId: 'CLM-91046',
    policyId: 'POL-6120',
    peril: 'storm',
    holder: 'Luis Ortega',
    vehicle: '2018 Seat Leon',
    // Settled by a colleague on 6 March, after which there is nothing left to decide.
    status: [
      { from: '0000-01-01', value: 'open' },
      { from: '2026-03-06', value: 'settled' },
    ],
    description:
      'A branch fell on the car during the storm of 27 February, denting the roof and cracking the windscreen.',
    documents: [
      {
        documentId: 'DOC-60461',
        kind: 'assessor_form',
        scans: always(clean(700, 0.95)),
        assessor: 'P. Novak',
        notes: 'Roof dent and windscreen replacement.',
      },
    ],
  },
  {
    claimId: 'CLM-91058',
    policyId: 'POL-5531',
    peril: 'collision',
    holder: 'Hana Sato',
    vehicle: '2016 Mazda 3',
    status: always('open'),
    description: "Side-swiped by a van on a narrow lane; the driver's door and front wing are dented and scraped.",
    documents: [
      {
        documentId: 'DOC-70581',
        kind: 'assessor_form',
        // A coffee stain blurred the first scan; the office re-scanned the form on 8 March.
        scans: [
          {
            from: '0000-01-01',
            value: { v1: { value: 1300, confidence: 0.44 }, v2: { value: 1300, confidence: 0.49 } },
          },
          {
            from: '2026-03-08',
            value: { v1: { value: 1300, confidence: 0.9 }, v2: { value: 1300, confidence: 0.95 } },
          },
        ],
        assessor: 'J. Achterberg',
        notes: 'Door skin replacement, wing repair; the form has a stain over the measurements.',
      },
    ],
  },
  {
    claimId: 'CLM-91069',
    policyId: 'POL-2210',
    peril: 'collision',
    holder: 'Oskar Berg',
    vehicle: '2015 Volkswagen Golf',
    status: always('disputed'),
    description:
      'The holder reports a hit-and-run at night. A witness statement received later places the car at a different address; the claim is under investigation.',
    documents: [
      {
        documentId: 'DOC-80691',
        kind: 'assessor_form',
        scans: always(clean(950, 0.93)),
        assessor: 'S. Mwangi',
        notes: 'Front bumper and headlamp damage.',
      },
    ],
  },
  {
    claimId: 'CLM-91080',
    policyId: 'POL-7781',
    peril: 'collision',
    holder: 'Ines Duarte',
    vehicle: '2023 Kia EV6',
    status: always('open'),
    description:
      'Rear-ended at a junction and pushed into the car in front: damage front and rear. Two assessors inspected the car, one for each end.',
    documents: [
      {
        documentId: 'DOC-90801',
        kind: 'assessor_form',
        scans: always(clean(620, 0.93)),
        assessor: 'P. Novak',
        notes: 'Front: bumper, bonnet edge, grille.',
      },
      {
        documentId: 'DOC-90802',
        kind: 'assessor_form',
        scans: always(clean(410, 0.91)),
        assessor: 'J. Achterberg',
        notes: 'Rear: bumper, tailgate.',
      },
    ],
  },
  {
    claimId: 'CLM-91091',
    policyId: 'POL-4412',
    peril: 'storm',
    holder: 'Farid Haddad',
    vehicle: '2019 Hyundai Tucson',
    status: always('open'),
    description: 'Roof tiles blown off a neighbouring house landed on the car; bonnet and roof dented.',
    documents: [
      // Legible but faint: a reading a careful reader might still refer.
      {
        documentId: 'DOC-91911',
        kind: 'assessor_form',
        scans: always({ v1: { value: 1500, confidence: 0.58 }, v2: { value: 1500, confidence: 0.62 } }),
        assessor: 'S. Mwangi',
        notes: 'Faint carbon copy of the form.',
      },
    ],
  },
  {
    claimId: 'CLM-91103',
    policyId: 'POL-7781',
    peril: 'fire',
    holder: 'Niamh Kelly',
    vehicle: '2020 BMW 320d',
    status: always('open'),
    description:
      "An electrical fault in a neighbour's garage spread to the carport; the car's front end was scorched and the headlamps melted.",
    documents: [
      {
        documentId: 'DOC-11031',
        kind: 'assessor_form',
        scans: always(clean(2400, 0.97)),
        assessor: 'P. Novak',
        notes: 'Front end respray, both headlamps, bumper.',
      },
      photos('DOC-11032'),
    ],
  },
  ...PERIOD_CLAIMS,
];
