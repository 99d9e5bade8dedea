import { Field, Select } from "@fluentui/react-components";

/** A chooser limited to the values a series offers, with "use the default" first. */
export function ChoiceSelect(props: {
  label: string;
  name: string;
  value: string;
  defaultLabel: string;
  options: readonly string[];
  onChange: (value: string) => void;
}): React.JSX.Element {
  return (
    <Field label={props.label}>
      <Select
        value={props.value}
        // The chosen label as a tooltip: readable even where a narrow pane could cut it.
        title={props.value === "" ? props.defaultLabel : props.value}
        onChange={(_event, data) => props.onChange(data.value)}
        name={props.name}
      >
        <option value="">{props.defaultLabel}</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </Select>
    </Field>
  );
}
