import type { RunRetention, TierSizes } from '../../engine/index.js';

/** Bytes in a unit a person reads at a glance: `812 B`, `3.4 KB`, `35.7 KB`, `288 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** `full 35.7 KB · structural 3.4 KB (1/10.5 of full)`, with `gone` for a tier that is no longer held. */
export function formatTierSizes(sizes: TierSizes): string {
  const full = sizes.full === null ? 'full gone' : `full ${formatBytes(sizes.full)}`;
  const structural = sizes.structural === null ? 'structural gone' : `structural ${formatBytes(sizes.structural)}`;
  const ratio =
    sizes.full !== null && sizes.structural !== null && sizes.structural > 0
      ? ` (1/${(sizes.full / sizes.structural).toFixed(1)} of full)`
      : '';
  return `tiers: ${full} · ${structural}${ratio}`;
}

/** What the store holds of a run and until when, in one line. */
export function formatRetention(retention: RunRetention): string {
  const { tier, expiresAt, structuralExpiresAt, purge } = retention;
  if (tier === 'synthetic') return 'retention: synthetic tier, kept without expiry';
  const structural = structuralExpiresAt === null ? '' : `; structural until ${structuralExpiresAt}`;
  if (purge !== null) {
    const why = purge.reason === 'capture-policy' ? 'not kept by the capture policy' : `expired, removed ${purge.at}`;
    return `retention: ${tier} tier ${why}${structural}`;
  }
  if (retention.expired)
    return `retention: ${tier} tier expired at ${expiresAt ?? '?'} (not yet removed by gc: its payloads are no longer shown)${structural}`;
  return `retention: ${tier} tier until ${expiresAt ?? 'never'}${structural}`;
}
