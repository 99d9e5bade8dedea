// Engine settings: defaults, validation and persistence. Every address and base path is
// a setting (docs/service.md §6.8: earlier interfaces lived under other base paths). The
// password is never a setting: only the fields of EngineSettings are ever stored.
import type { EngineSettings } from "./engine-api";
import type { KeyValueStorage, Logger } from "./environment";
import { PcdError } from "./errors";
import { PRODUCTS, type ProductId, type ServiceEnvironment } from "./model";

export const SETTINGS_STORAGE_KEY = "pcd:settings";

export const DEFAULT_SETTINGS: EngineSettings = Object.freeze({
  environment: "live",
  // No address of its own: the host passes the one it was built or started with
  // (createEngine's `defaults`), else the user enters it at first sign-in.
  baseUrl: "",
  authUrl: "",
  productPaths: Object.freeze({
    energy_price: "/energy_price",
    commodity_price: "/commodity_price",
    industry_economics: "/industry_economics",
  }),
  releaseBusinessDay: 3,
  autoRefreshAfterRelease: false,
  // The vendor's own examples use about 130 s for data calls (docs/service.md §6.9).
  callTimeoutMs: 130_000,
  historyTimeoutMs: 300_000,
}) as EngineSettings;

const MIN_TIMEOUT_MS = 1_000;
const MAX_TIMEOUT_MS = 15 * 60_000;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const SETTING_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_SETTINGS));

function invalid(field: string, message: string): PcdError {
  return new PcdError("input", `Invalid setting ${field}: ${message}`, { argument: field });
}

function validateUrl(field: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw invalid(field, "an address is required.");
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(field, `"${text}" is not a valid address (expected e.g. https://service.example.com).`);
  }
  if (url.username !== "" || url.password !== "") {
    throw invalid(field, "the address must not contain a user name or password.");
  }
  if (text.includes("?") || text.includes("#")) {
    throw invalid(field, "the address must not contain a query (?) or fragment (#).");
  }
  const loopback = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !loopback) {
    throw invalid(
      field,
      `"${text}" must use https (plain http is allowed only for localhost, 127.0.0.1 and [::1]).`,
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function validatePath(field: string, value: unknown): string {
  if (typeof value !== "string") throw invalid(field, "a base path text is required (e.g. /energy_price).");
  const text = value.trim();
  if (!text.startsWith("/")) throw invalid(field, `"${text}" must start with "/" (e.g. /energy_price).`);
  if (/[?#\s\\]/.test(text)) throw invalid(field, `"${text}" must not contain spaces, "?", "#" or "\\".`);
  const trimmed = text.replace(/\/+$/, "");
  if (trimmed === "") throw invalid(field, "the base path must not be empty.");
  return trimmed;
}

function validateIntegerInRange(field: string, value: unknown, min: number, max: number, unit = ""): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be a whole number from ${min}${unit} to ${max}${unit}, got ${String(value)}.`);
  }
  return value;
}

function validateProductPaths(value: unknown): Partial<Record<ProductId, string>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("productPaths", "expected an object with a base path per product.");
  }
  const result: Partial<Record<ProductId, string>> = {};
  for (const [key, path] of Object.entries(value)) {
    if (!(PRODUCTS as readonly string[]).includes(key)) {
      throw invalid(`productPaths.${key}`, `unknown product (expected one of ${PRODUCTS.join(", ")}).`);
    }
    result[key as ProductId] = validatePath(`productPaths.${key}`, path);
  }
  return result;
}

/**
 * Checks and normalises a settings patch. Throws PcdError("input") naming the field at
 * fault; a field that is not a setting (a password, say) is rejected, never stored.
 * productPaths may be partial: the missing products keep their current path.
 */
export function validateSettings(patch: Partial<EngineSettings>): Partial<EngineSettings> {
  const result: Partial<EngineSettings> = {};
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    switch (field) {
      case "environment":
        if (value !== "live" && value !== "sandbox") {
          throw invalid(field, `must be "live" or "sandbox", got ${JSON.stringify(value)}.`);
        }
        result.environment = value;
        break;
      case "baseUrl":
      case "authUrl":
        result[field] = validateUrl(field, value);
        break;
      case "productPaths":
        // Partial on purpose; SettingsStore merges it over the current paths.
        result.productPaths = validateProductPaths(value) as Record<ProductId, string>;
        break;
      case "releaseBusinessDay":
        result.releaseBusinessDay = validateIntegerInRange(field, value, 1, 10);
        break;
      case "autoRefreshAfterRelease":
        if (typeof value !== "boolean") throw invalid(field, `must be true or false, got ${String(value)}.`);
        result.autoRefreshAfterRelease = value;
        break;
      case "callTimeoutMs":
      case "historyTimeoutMs":
        result[field] = validateIntegerInRange(field, value, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, " ms");
        break;
      default:
        throw invalid(field, `"${field}" is not a setting (settings are ${[...SETTING_KEYS].join(", ")}).`);
    }
  }
  return result;
}

function merge(base: EngineSettings, patch: Partial<EngineSettings>): EngineSettings {
  return {
    ...base,
    ...patch,
    productPaths: { ...base.productPaths, ...(patch.productPaths ?? {}) },
  };
}

/** Copies exactly the EngineSettings fields, so nothing else can reach storage. */
function pickSettings(settings: EngineSettings): EngineSettings {
  return {
    environment: settings.environment,
    baseUrl: settings.baseUrl,
    authUrl: settings.authUrl,
    productPaths: { ...settings.productPaths },
    releaseBusinessDay: settings.releaseBusinessDay,
    autoRefreshAfterRelease: settings.autoRefreshAfterRelease,
    callTimeoutMs: settings.callTimeoutMs,
    historyTimeoutMs: settings.historyTimeoutMs,
  };
}

/** Reads stored settings field by field: a bad or unknown field falls back to its default. */
function sanitizeStored(stored: unknown, log?: Logger): Partial<EngineSettings> {
  if (typeof stored !== "object" || stored === null) return {};
  const result: Partial<EngineSettings> = {};
  for (const [field, value] of Object.entries(stored)) {
    if (!SETTING_KEYS.has(field)) continue;
    try {
      Object.assign(result, validateSettings({ [field]: value } as Partial<EngineSettings>));
    } catch (error) {
      log?.("warn", `Stored setting ignored, default used: ${(error as Error).message}`);
    }
  }
  return result;
}

/** Whether the service and token addresses are both known (neither is still empty). */
export function hasServiceAddress(settings: Pick<EngineSettings, "baseUrl" | "authUrl">): boolean {
  return settings.baseUrl !== "" && settings.authUrl !== "";
}

export class SettingsStore {
  private settings: EngineSettings;

  /** `defaults`: what a setting is until the user changes it (the host's addresses over DEFAULT_SETTINGS). */
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly log?: Logger,
    private readonly defaults: EngineSettings = DEFAULT_SETTINGS,
  ) {
    this.settings = pickSettings(defaults);
  }

  /** Loads from storage; unreadable storage or fields fall back to the defaults. */
  async load(): Promise<EngineSettings> {
    let stored: unknown;
    try {
      stored = await this.storage.get<unknown>(SETTINGS_STORAGE_KEY);
    } catch (error) {
      this.log?.("warn", `Settings could not be read, defaults used: ${(error as Error).message}`);
    }
    this.settings = merge(pickSettings(this.defaults), sanitizeStored(stored, this.log));
    return this.current();
  }

  current(): EngineSettings {
    return pickSettings(this.settings);
  }

  /**
   * The environment, read without copying every setting: the engine asks for it per cell
   * and per call (a copy each time was a few hundred bytes per cell of every recalculation).
   */
  environment(): ServiceEnvironment {
    return this.settings.environment;
  }

  /** The release's business day, read without a copy (as environment). */
  releaseBusinessDay(): number {
    return this.settings.releaseBusinessDay;
  }

  /** Validates the patch (PcdError "input"), applies and persists it. */
  async update(patch: Partial<EngineSettings>): Promise<EngineSettings> {
    const next = merge(this.settings, validateSettings(patch));
    try {
      await this.storage.set(SETTINGS_STORAGE_KEY, pickSettings(next));
    } catch (error) {
      throw new PcdError("storage", `Settings could not be saved: ${(error as Error).message}`);
    }
    this.settings = next;
    return this.current();
  }
}
