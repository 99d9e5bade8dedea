// A team gateway answers Series Info from its own copy of the catalog, also while the service
// is closed for the monthly release: when it read that copy from the service says what the
// answer shows (docs/gateway.md). The gateway sends it in this header; the engine takes it as
// the time the service answered (downtime-policy.ts), never the member's call's own time.
// Members send the time back with their data calls (service-client-impl.ts): the catalog their
// answers must match, which an instance of the gateway holding an older copy reads first.

/** ISO 8601 time at which the gateway read the catalog it answers with from the service. */
export const CATALOG_READ_AT_HEADER = "pcd-catalog-read-at";

/** An ISO 8601 date and time with seconds and a zone (Z or an offset), as the gateway writes it. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

/** The header's time in epoch ms; null when absent or not such a time. */
export function catalogReadAt(value: string | null): number | null {
  if (value === null || !ISO_TIME.test(value)) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}
