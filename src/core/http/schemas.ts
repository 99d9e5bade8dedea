// Validation and normalisation of the service's answers
// (docs/service.md §2.1-§2.3 as stretched by the real shape, §6) with valibot. Objects are loose: fields added within v1 are
// ignored, never a failure (docs/service.md §9). One bad record fails alone: it is skipped
// from Series Info with a warning (one record must not lose the catalog), and its code
// is absent from a Values/History answer (that code fails, the others do not). A record
// with final values after the latest month that can have them (final-month-bound.ts) is a
// protocol error for its code.
import * as v from "valibot";
import type { Logger } from "../environment";
import { PcdError } from "../errors";
import type { DataLimits, MemberBudget, Month, ProductId, SeriesInfo } from "../model";
import { PointColumns } from "../point-columns";
import type { SeriesAnswer } from "../service-client";
import { CODE_PATTERN } from "./codes-segment";
import { deriveDataType } from "./data-type";
import {
  displayText,
  optionalText,
  toBoolean,
  toDateText,
  toFiniteNumber,
  toLag,
  toList,
  toMonth,
} from "./normalise";
import type { ServiceOperation } from "./paths";
import { readPointList } from "./point-list";
import { TextPool } from "./text-pool";

export const OPERATION_NAMES: Record<ServiceOperation, string> = {
  series_info: "Series Info",
  series_values: "Series Values",
  series_hist: "Series Values History",
  data_limits: "Data Limits",
};

const CodeSchema = v.pipe(
  v.string("code must be a text"),
  v.trim(),
  v.regex(CODE_PATTERN, "code must be three hyphen-separated numbers"),
);

const FiniteNumberSchema = v.pipe(
  v.unknown(),
  v.transform(toFiniteNumber),
  v.number("value must be a finite number (or a numeric text)"),
);

const MonthSchema = v.pipe(v.unknown(), v.transform(toMonth), v.string("date must be a YYYY-MM-DD text"));

// A point's other fields (should the service add any) are dropped, not copied (object, not
// looseObject). Valid lists skip this schema (point-list.ts); it words what is wrong.
const PointSchema = v.object({ date: MonthSchema, value: FiniteNumberSchema });

const PointListSchema = v.array(PointSchema, "expected an array of {date, value}");

// The record's other fields are read from the record itself (toSeriesInfo): an object schema
// checks these two and passes over the rest, where a loose one would copy all twenty-odd fields
// of every record of a catalog into an output nobody reads.
const SeriesInfoRecordSchema = v.object({
  code: CodeSchema,
  coverage: v.pipe(v.string("coverage must be a text"), v.trim(), v.nonEmpty("coverage must not be empty")),
});

const SeriesValuesRecordSchema = v.looseObject({
  code: CodeSchema,
  series_final_values: PointListSchema,
  // Missing or null means no forecast (always so for plant location factors).
  series_forecast_values: v.optional(v.nullable(PointListSchema), []),
});

const DataLimitEntrySchema = v.looseObject({
  remaining_requests: FiniteNumberSchema,
  total_requests: FiniteNumberSchema,
});

// A team gateway's additive fields (docs/service.md §9 allows them within v1): the signed-in
// member's own budget beside the team's allowance. Both or neither: one alone says nothing.
const RequestCountSchema = v.pipe(FiniteNumberSchema, v.minValue(0, "must not be negative"));
const MemberBudgetSchema = v.looseObject({
  member_budget: RequestCountSchema,
  member_remaining_requests: RequestCountSchema,
});

function describeIssues(issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

function describeKind(body: unknown): string {
  if (body === null) return "null";
  if (Array.isArray(body)) return "an array";
  return typeof body === "object" ? "an object" : `a ${typeof body}`;
}

function requireArray(body: unknown, operation: ServiceOperation): unknown[] {
  if (!Array.isArray(body)) {
    throw new PcdError(
      "protocol",
      `The ${OPERATION_NAMES[operation]} answer was not a list of records (got ${describeKind(body)}).`,
    );
  }
  return body;
}

/**
 * The schema's points as columns, oldest first with one point per month (the last one
 * seen wins). The service sends newest first (both shapes, docs/service.md §2.2); some
 * deployments send oldest first (point-columns.ts reads either without a sort). Only a
 * record the fast reader refused comes here (point-list.ts), so a copy per point is fine.
 */
export function normalisePoints(points: ReadonlyArray<{ date: string; value: number }>): PointColumns {
  return PointColumns.fromPoints(points.map(({ date, value }) => ({ month: date, value })));
}

function toSeriesInfo(
  product: ProductId,
  record: Record<string, unknown>,
  code: string,
  pool: TextPool,
): SeriesInfo {
  const productName = pool.of(displayText(record.product));
  const assessment = pool.of(displayText(record.assessment));
  const commodity = pool.of(displayText(record.commodity));
  const text = (value: unknown): string | null => pool.ofOptional(optionalText(value));
  return {
    code,
    product,
    productName,
    dataType: deriveDataType(product, { productName, commodity, assessment }),
    assessment,
    commodity,
    coverage: pool.of(displayText(record.coverage)),
    location: pool.of(displayText(record.location)),
    area: text(record.area),
    details: text(record.details),
    specification: text(record.specification),
    remark1: text(record.remark_1),
    remark2: text(record.remark_2),
    lag: toLag(record.remark_1),
    defaultCurrency: text(record.default_currency),
    defaultUnit: text(record.default_unit),
    availableCurrencies: toList(record.available_currencies).map((name) => pool.of(name)),
    availableUnits: toList(record.available_units).map((name) => pool.of(name)),
    hasForecast: toBoolean(record.has_forecast),
    hasPreliminary: toBoolean(record.has_preliminary),
    seriesHistChanged: toBoolean(record.series_hist_changed),
    lastAvailableFinal: toMonth(record.last_available_final),
    updatedAt: pool.ofOptional(toDateText(record.updated_at)),
    raw: Object.freeze(pool.record(record)),
  };
}

/** Series Info (docs/service.md §2.1): every valid record, bad ones skipped with a warning. */
export function parseSeriesInfoList(body: unknown, product: ProductId, log?: Logger): SeriesInfo[] {
  const records = requireArray(body, "series_info");
  const result: SeriesInfo[] = [];
  // Equal texts of the answer's records become one string each (text-pool.ts says why).
  const pool = new TextPool();
  records.forEach((record, index) => {
    const parsed = v.safeParse(SeriesInfoRecordSchema, record);
    if (!parsed.success) {
      log?.("warn", `Series Info (${product}): record ${index} skipped: ${describeIssues(parsed.issues)}.`);
      return;
    }
    result.push(toSeriesInfo(product, record as Record<string, unknown>, parsed.output.code, pool));
  });
  return result;
}

/**
 * Series Values / History (docs/service.md §2.2), keyed by each record's own code (never by
 * position). Records for codes that were not requested are ignored; a record that fails
 * validation leaves its code absent, with a warning.
 */
export function parseSeriesValuesList(
  body: unknown,
  operation: "series_values" | "series_hist",
  requested: ReadonlySet<string>,
  log?: Logger,
  latestFinal?: Month,
): SeriesAnswer {
  const records = requireArray(body, operation);
  const result: SeriesAnswer = new Map();
  records.forEach((record, index) => {
    let output = readValuesRecord(record);
    if (output === undefined) {
      const parsed = v.safeParse(SeriesValuesRecordSchema, record);
      if (!parsed.success) {
        const code = optionalText((record as { code?: unknown } | null)?.code) ?? `record ${index}`;
        log?.("warn", `${OPERATION_NAMES[operation]}: ${code} dropped: ${describeIssues(parsed.issues)}.`);
        return;
      }
      output = {
        ...parsed.output,
        finals: normalisePoints(parsed.output.series_final_values),
        forecasts: normalisePoints(parsed.output.series_forecast_values ?? []),
      };
    }
    if (!requested.has(output.code)) {
      log?.("debug", `${OPERATION_NAMES[operation]}: ignored record for unrequested code ${output.code}.`);
      return;
    }
    const lastFinal = output.finals.lastMonth();
    if (latestFinal !== undefined && lastFinal !== null && lastFinal > latestFinal) {
      // Its latest value would be shown as current for a month that has not ended.
      const error = new PcdError(
        "protocol",
        `The service sent a final value for ${lastFinal} for ${output.code}, a month in the future (${OPERATION_NAMES[operation]}: the latest month with final values can be ${latestFinal}); PCD did not use this answer.`,
      );
      log?.("warn", error.message);
      result.set(output.code, error);
      return;
    }
    result.set(output.code, {
      code: output.code,
      currency: optionalText(output.currency),
      unit: optionalText(output.unit),
      updatedAt: toDateText(output.updated_at),
      finals: output.finals,
      forecasts: output.forecasts,
    });
  });
  return result;
}

/** What parseSeriesValuesList reads of a record, its points as columns. */
interface ValuesRecord {
  code: string;
  currency?: unknown;
  unit?: unknown;
  updated_at?: unknown;
  finals: PointColumns;
  forecasts: PointColumns;
}

/**
 * A record whose code and points are all valid, read with the schema for its code only
 * (point-list.ts); undefined sends it through the whole schema, which words the problem.
 */
function readValuesRecord(record: unknown): ValuesRecord | undefined {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return undefined;
  const fields = record as Record<string, unknown>;
  const code = v.safeParse(CodeSchema, fields.code);
  if (!code.success) return undefined;
  const finals = readPointList(fields.series_final_values);
  const forecastList = fields.series_forecast_values;
  // Missing or null means no forecast, as in the schema.
  const forecasts =
    forecastList === undefined || forecastList === null ? PointColumns.EMPTY : readPointList(forecastList);
  if (finals === undefined || forecasts === undefined) return undefined;
  return {
    code: code.output,
    currency: fields.currency,
    unit: fields.unit,
    updated_at: fields.updated_at,
    finals,
    forecasts,
  };
}

/**
 * Data Limits (docs/service.md §2.3): dataset -> allowance; a malformed entry is skipped with a
 * warning. A gateway's member budget (member_budget, member_remaining_requests) is read when
 * both are readable counts; otherwise the entry is the team's allowance alone, never a failure.
 * When the budget comes back (member_budget_resets_at) is read when it is an ISO 8601 instant
 * with its offset, else left out with a warning.
 */
export function parseDataLimits(body: unknown, product: ProductId, log?: Logger): DataLimits {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new PcdError(
      "protocol",
      `The Data Limits answer was not an object of datasets (got ${describeKind(body)}).`,
    );
  }
  // Filled with defineProperty: a dataset named "__proto__" must become an own entry, not
  // the object's prototype.
  const result: DataLimits = {};
  for (const [dataset, entry] of Object.entries(body)) {
    const parsed = v.safeParse(DataLimitEntrySchema, entry);
    if (!parsed.success) {
      log?.(
        "warn",
        `Data Limits (${product}): dataset "${dataset}" skipped: ${describeIssues(parsed.issues)}.`,
      );
      continue;
    }
    const member = memberBudgetOf(parsed.output, (problem) =>
      log?.("warn", `Data Limits (${product}): dataset "${dataset}": ${problem}.`),
    );
    Object.defineProperty(result, dataset, {
      value: {
        remaining: parsed.output.remaining_requests,
        total: parsed.output.total_requests,
        ...(member === undefined ? {} : { member }),
      },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The member's budget in a Data Limits entry; undefined when it has none or it is unreadable. */
function memberBudgetOf(
  entry: Readonly<Record<string, unknown>>,
  ignored: (problem: string) => void,
): MemberBudget | undefined {
  const given = [entry.member_budget, entry.member_remaining_requests].filter(
    (value) => value !== undefined && value !== null,
  );
  if (given.length === 0) return undefined;
  const parsed = v.safeParse(MemberBudgetSchema, entry);
  if (!parsed.success) {
    ignored(`member budget ignored: ${describeIssues(parsed.issues)}`);
    return undefined;
  }
  const budget = { budget: parsed.output.member_budget, remaining: parsed.output.member_remaining_requests };
  const resets = entry.member_budget_resets_at;
  if (resets === undefined || resets === null) return budget;
  // An instant with its offset (as the gateway writes it): a time without one would be read in
  // this machine's zone.
  const resetsAt = typeof resets === "string" && ISO_INSTANT.test(resets) ? Date.parse(resets) : Number.NaN;
  if (Number.isNaN(resetsAt)) {
    ignored(`member_budget_resets_at ignored: not a time (${JSON.stringify(resets).slice(0, 40)})`);
    return budget;
  }
  return { ...budget, resetsAt };
}
