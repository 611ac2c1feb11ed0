/**
 * What a cassette or a stored run holds (DESIGN section 6): `full`, every
 * payload as recorded, kept 72 hours; `structural`, the run's shape only,
 * kept 90 days; `synthetic`, a run of a hand-written synthetic case, which
 * holds no customer data and is kept without expiry.
 */
export type Tier = 'full' | 'structural' | 'synthetic';
