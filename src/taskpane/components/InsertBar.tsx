// Builds the formula for the chosen series and writes it into the workbook: one formula
// per selected series, from the selected cell on, values one row each, tables below each
// other or side by side (insert-plan.ts). The currency and unit choosers offer only what
// every selected series has available. The formula, the
// Insert button and its confirmation sit in a footer that stays in view (sticky) while
// the list and the details scroll; while the selected cell holds a PCD formula the edit
// form's own footer takes its place, and a confirmation lasts until the selection moves.
import { useEffect, useMemo, useState, type ReactNode } from "react";
import {
  Button,
  Caption1,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Select,
  tokens,
} from "@fluentui/react-components";
import {
  DEFAULT_FORECAST,
  DEFAULT_HEADERS,
  DEFAULT_ORDER,
  FORECAST_CHOICES,
  HEADERS_CHOICES,
  ORDER_CHOICES,
  defaultFirst,
  type ForecastOption,
  type HeadersOption,
  type OptionChoice,
  type OrderOption,
} from "../../contracts/formula-options";
import type { SeriesInfo } from "../../core/model";
import {
  buildFormulas,
  DEFAULT_CHOICES,
  type FormulaChoices,
  type FormulaKind,
  type StackDirection,
} from "../insert-formulas";
import { insertedText, insertHeading, planInsert } from "../insert-plan";
import { describeError } from "../messages";
import { usePaneServices } from "../pane-services";
import { useStickyFooterRoom } from "../hooks/use-sticky-footer-room";
import { ChoiceSelect } from "./ChoiceSelect";
import { commonChoices, takesCurrencyAndUnit } from "../series-filters";
import { SERIES_FIELDS } from "../series-fields";

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    paddingTop: tokens.spacingVerticalS,
  },
  pair: {
    display: "grid",
    gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
    gap: tokens.spacingHorizontalS,
    // Fluent's selects and inputs have an intrinsic width: let them shrink to the 320 px pane.
    "& > *": { minWidth: 0 },
    "& select, & input": { minWidth: 0, width: "100%" },
    "& span": { minWidth: 0 },
  },
  /** In view at the bottom of the pane whatever is scrolled above it. */
  footer: {
    position: "sticky",
    bottom: 0,
    zIndex: 1,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
    backgroundColor: tokens.colorNeutralBackground1,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    boxShadow: tokens.shadow4,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXS}`,
    marginLeft: `calc(-1 * ${tokens.spacingHorizontalXS})`,
    marginRight: `calc(-1 * ${tokens.spacingHorizontalXS})`,
  },
  /** While a PCD cell is edited: its form has its own footer, and nothing may cover it. */
  away: { display: "none" },
  kinds: { flexWrap: "wrap" },
  /**
   * Choosers take a whole row at 320 px, so "Finals and forecasts" and "Default (MMBtu)" are
   * never cut; side by side from about 420 px.
   */
  choices: {
    display: "grid",
    gridTemplateColumns: "repeat(auto-fit, minmax(200px, 1fr))",
    gap: tokens.spacingHorizontalS,
    "& > *": { minWidth: 0 },
    "& select": { minWidth: 0, width: "100%" },
  },
  formula: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: "anywhere",
    backgroundColor: tokens.colorNeutralBackground3,
    padding: tokens.spacingHorizontalXS,
  },
});

/** The label of a select's chosen option, as its tooltip: a cut label stays readable. */
function chosenLabel(options: ReadonlyArray<[string, string]>, value: string): string {
  return options.find(([optionValue]) => optionValue === value)?.[1] ?? "";
}

/** [value, label] pairs of the option selects, the default first (src/contracts/formula-options.ts). */
function selectOptions<T>(choices: readonly OptionChoice<T>[], fallback: T): ReadonlyArray<[string, string]> {
  return defaultFirst(choices, fallback).map((choice): [string, string] => [
    String(choice.value),
    choice.label,
  ]);
}
const FORECAST_OPTIONS = selectOptions(FORECAST_CHOICES, DEFAULT_FORECAST);
const ORDER_OPTIONS = selectOptions(ORDER_CHOICES, DEFAULT_ORDER);
const HEADERS_OPTIONS = selectOptions(HEADERS_CHOICES, DEFAULT_HEADERS);

export function InsertBar(props: {
  series: readonly SeriesInfo[];
  /** The selected cell when it holds a PCD formula: the edit form is shown and there is no footer. */
  editing?: string | null;
  /** The selection's move count: a confirmation is about the selection it was made for. */
  selectionMoves?: number;
  children?: ReactNode;
}): React.JSX.Element {
  const styles = useStyles();
  const { workbook, engine } = usePaneServices();
  const { series } = props;
  const [choices, setChoices] = useState<FormulaChoices>(DEFAULT_CHOICES);
  const [result, setResult] = useState<{ intent: "success" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [stack, setStack] = useState<StackDirection>("below");
  useEffect(() => setResult(null), [props.selectionMoves]);
  const footerRef = useStickyFooterRoom();
  const editing = props.editing ?? null;
  const update = (patch: Partial<FormulaChoices>): void =>
    setChoices((previous) => ({ ...previous, ...patch }));

  const priced = useMemo(() => series.filter(takesCurrencyAndUnit), [series]);
  const currencies = useMemo(() => commonChoices(priced, "availableCurrencies"), [priced]);
  const units = useMemo(() => commonChoices(priced, "availableUnits"), [priced]);
  const single = series.length === 1 ? series[0] : undefined;

  // A choice the new selection does not offer falls back to the series default.
  useEffect(() => {
    setChoices((previous) => {
      const currency = currencies.includes(previous.currency) ? previous.currency : "";
      const unit = units.includes(previous.unit) ? previous.unit : "";
      return currency === previous.currency && unit === previous.unit
        ? previous
        : { ...previous, currency, unit };
    });
  }, [currencies, units]);

  let preview: string[] = [];
  let previewError: string | null = null;
  try {
    preview = buildFormulas(series, choices);
  } catch (error) {
    previewError = describeError(error);
  }

  const insert = async (): Promise<void> => {
    setBusy(true);
    setResult(null);
    try {
      const written = await workbook.insertFormulas(await planInsert(engine, series, choices, stack));
      setResult({ intent: "success", text: insertedText(choices, written) });
    } catch (error) {
      setResult({ intent: "error", text: `Could not insert: ${describeError(error)}` });
    } finally {
      setBusy(false);
    }
  };

  if (series.length === 0) {
    return (
      <>
        {props.children}
        {editing !== null ? (
          <EditingNote address={editing} />
        ) : (
          <div className={styles.footer} data-testid="insert-footer" ref={footerRef}>
            <Caption1>Select a series (click it, or check several) to insert formulas.</Caption1>
            {result && <InsertResult result={result} />}
          </div>
        )}
      </>
    );
  }

  const defaultLabel = (field: "defaultCurrency" | "defaultUnit"): string =>
    single?.[field] ? `Default (${single[field]})` : "Series default";

  return (
    <>
      <section className={styles.root} aria-label="Insert formulas">
        <Field
          label={insertHeading(
            series.map((info) => info.code),
            choices,
            stack,
          )}
        >
          <RadioGroup
            layout="horizontal"
            // Five kinds: they wrap onto a second line in a narrow pane instead of widening it.
            className={styles.kinds}
            value={choices.kind}
            onChange={(_event, data) => update({ kind: data.value as FormulaKind })}
          >
            <Radio value="values" label="Table" />
            <Radio value="value" label="Value" />
            <Radio value="info" label="Info" />
            <Radio value="escalate" label="Escalate" />
            <Radio value="average" label="Average" />
          </RadioGroup>
        </Field>
        {choices.kind !== "info" && priced.length > 0 && (
          <div className={styles.choices}>
            <ChoiceSelect
              label="Currency"
              name="currency"
              value={choices.currency}
              defaultLabel={defaultLabel("defaultCurrency")}
              options={currencies}
              onChange={(currency) => update({ currency })}
            />
            <ChoiceSelect
              label="Unit"
              name="unit"
              value={choices.unit}
              defaultLabel={defaultLabel("defaultUnit")}
              options={units}
              onChange={(unit) => update({ unit })}
            />
          </div>
        )}
        {choices.kind !== "info" && priced.length < series.length && (
          <Caption1>Industry cost index and location factor series take no currency or unit.</Caption1>
        )}
        {choices.kind === "values" && (
          <>
            <div className={styles.pair}>
              <Field label="From (YYYY-MM)">
                <Input
                  name="startMonth"
                  value={choices.startMonth}
                  placeholder="first"
                  onChange={(_e, d) => update({ startMonth: d.value })}
                />
              </Field>
              <Field label="To (YYYY-MM)">
                <Input
                  name="endMonth"
                  value={choices.endMonth}
                  placeholder="last"
                  onChange={(_e, d) => update({ endMonth: d.value })}
                />
              </Field>
            </div>
            <div className={styles.choices}>
              <Field label="Forecasts">
                <Select
                  name="forecast"
                  value={String(choices.forecast)}
                  title={chosenLabel(FORECAST_OPTIONS, String(choices.forecast))}
                  onChange={(_e, d) => update({ forecast: Number(d.value) as ForecastOption })}
                >
                  {FORECAST_OPTIONS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Order">
                <Select
                  name="order"
                  value={String(choices.order)}
                  title={chosenLabel(ORDER_OPTIONS, String(choices.order))}
                  onChange={(_e, d) => update({ order: Number(d.value) as OrderOption })}
                >
                  {ORDER_OPTIONS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Headers">
                <Select
                  name="headers"
                  value={String(choices.headers)}
                  title={chosenLabel(HEADERS_OPTIONS, String(choices.headers))}
                  onChange={(_e, d) => update({ headers: Number(d.value) as HeadersOption })}
                >
                  {HEADERS_OPTIONS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              </Field>
              {series.length > 1 && (
                <Field label="Stack tables">
                  <Select
                    name="stack"
                    value={stack}
                    onChange={(_e, d) => setStack(d.value === "beside" ? "beside" : "below")}
                  >
                    <option value="below">Below each other</option>
                    <option value="beside">Side by side</option>
                  </Select>
                </Field>
              )}
            </div>
          </>
        )}
        {(choices.kind === "escalate" || choices.kind === "average") && (
          <div className={styles.choices}>
            {choices.kind === "escalate" && (
              <Field label="Amount" hint="A number or a cell, e.g. 1250000 or B4.">
                <Input
                  name="amount"
                  value={choices.amount}
                  onChange={(_e, d) => update({ amount: d.value })}
                />
              </Field>
            )}
            <Field label="From (YYYY-MM)">
              <Input
                name="fromMonth"
                value={choices.startMonth}
                placeholder="YYYY-MM"
                onChange={(_e, d) => update({ startMonth: d.value })}
              />
            </Field>
            <Field
              label="To (YYYY-MM)"
              hint={choices.kind === "escalate" ? "Empty: the latest final month." : undefined}
            >
              <Input
                name="toMonth"
                value={choices.endMonth}
                placeholder={choices.kind === "escalate" ? "latest" : "YYYY-MM"}
                onChange={(_e, d) => update({ endMonth: d.value })}
              />
            </Field>
          </div>
        )}
        {choices.kind === "value" && (
          <Field label="Month (YYYY-MM)" hint="Empty: the latest final value.">
            <Input
              name="month"
              value={choices.month}
              placeholder="latest"
              onChange={(_e, d) => update({ month: d.value })}
            />
          </Field>
        )}
        {choices.kind === "info" && (
          <Field label="Field">
            <Select name="field" value={choices.field} onChange={(_e, d) => update({ field: d.value })}>
              <option value="">Every field (table)</option>
              {SERIES_FIELDS.map((field) => (
                <option key={field.name} value={field.name}>
                  {field.label}
                </option>
              ))}
            </Select>
          </Field>
        )}
      </section>
      {props.children}
      {editing !== null && <EditingNote address={editing} />}
      <div
        className={mergeClasses(styles.footer, editing !== null && styles.away)}
        data-testid="insert-footer"
        ref={footerRef}
      >
        {previewError === null ? (
          <code className={styles.formula} data-testid="formula-preview">
            {preview[0]}
            {preview.length > 1 ? ` (+${preview.length - 1} more)` : ""}
          </code>
        ) : (
          <MessageBar layout="multiline" intent="warning">
            <MessageBarBody>{previewError}</MessageBarBody>
          </MessageBar>
        )}
        <Button appearance="primary" disabled={busy || previewError !== null} onClick={() => void insert()}>
          {series.length === 1 ? "Insert into selected cell" : `Insert ${series.length} formulas`}
        </Button>
        {result && <InsertResult result={result} />}
      </div>
    </>
  );
}

/** Why there is no Insert button: the selected cell is edited in the form above. */
function EditingNote(props: { address: string }): React.JSX.Element {
  const cell = props.address.slice(props.address.lastIndexOf("!") + 1);
  return (
    <Caption1 data-testid="insert-editing-note">
      {cell} holds a PCD formula: edit it above, or select an empty cell to insert formulas there.
    </Caption1>
  );
}

function InsertResult(props: { result: { intent: "success" | "error"; text: string } }): React.JSX.Element {
  const { result } = props;
  return (
    <MessageBar
      layout="multiline"
      intent={result.intent}
      role={result.intent === "error" ? "alert" : "status"}
    >
      <MessageBarBody>{result.text}</MessageBarBody>
    </MessageBar>
  );
}
