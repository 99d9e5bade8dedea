// A team gateway answers Series Info from its own copy of the catalog, also while the service
// is closed for the monthly release: when it read that copy from the service says what the
// answer shows (docs/gateway.md). The gateway sends it in this header; the engine takes it as
// the time the service answered (downtime-policy.ts), never the member's call's own time.

/** ISO 8601 time at which the gateway read the catalog it answers with from the service. */
export const CATALOG_READ_AT_HEADER = "pcd-catalog-read-at";

/** The header's time in epoch ms; null when absent or not a time. */
export function catalogReadAt(value: string | null): number | null {
  if (value === null || value.length > 40) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}
