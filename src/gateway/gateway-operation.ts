// The service operations a member calls through the gateway (docs/service.md §4).

export const GATEWAY_OPERATIONS = ["series_info", "series_values", "series_hist", "data_limits"] as const;

export type GatewayOperation = (typeof GATEWAY_OPERATIONS)[number];

/** The operations that cost data requests and whose answers the gateway keeps. */
export type DataOperation = Extract<GatewayOperation, "series_values" | "series_hist">;
