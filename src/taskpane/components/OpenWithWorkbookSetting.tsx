// "Open PCD with this workbook" (off unless the user turns it on): Excel then loads PCD's
// runtime whenever this workbook opens (Office.addin.setStartupBehavior), so the release
// check and the refresh offer appear without opening the pane. The choice is stored in
// the workbook, which is why it is opt-in: a colleague without PCD who opens the file is
// asked about an add-in they do not have.
import { useEffect, useState } from "react";
import { Caption1, MessageBar, MessageBarBody, Switch } from "@fluentui/react-components";
import { describeError } from "../messages";
import { usePaneServices } from "../pane-services";

export const OPEN_WITH_WORKBOOK_TRADE_OFF =
  "Excel then loads PCD whenever this workbook opens, so the release check and the refresh offer appear without opening the pane. The setting is saved in the workbook: colleagues you share it with who do not have PCD may be asked to get or trust an add-in they do not have. Leave it off for workbooks you send to others.";

export function OpenWithWorkbookSetting(): React.JSX.Element {
  const { workbook } = usePaneServices();
  const [state, setState] = useState<
    { status: "loading" } | { status: "ready"; open: boolean } | { status: "unavailable"; message: string }
  >({ status: "loading" });
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    workbook.opensWithWorkbook().then(
      (open) => live && setState({ status: "ready", open }),
      (failure: unknown) => live && setState({ status: "unavailable", message: describeError(failure) }),
    );
    return () => {
      live = false;
    };
  }, [workbook]);

  const change = async (open: boolean): Promise<void> => {
    setError(null);
    try {
      await workbook.setOpensWithWorkbook(open);
      setState({ status: "ready", open: await workbook.opensWithWorkbook() });
    } catch (failure) {
      setError(`Could not change the setting: ${describeError(failure)}`);
    }
  };

  if (state.status === "unavailable") {
    return <Caption1 data-testid="open-with-workbook-unavailable">{state.message}</Caption1>;
  }
  return (
    <>
      <Switch
        checked={state.status === "ready" && state.open}
        disabled={state.status !== "ready"}
        onChange={(_event, data) => void change(data.checked)}
        label="Open PCD with this workbook"
        aria-describedby="open-with-workbook-trade-off"
      />
      <Caption1 id="open-with-workbook-trade-off">{OPEN_WITH_WORKBOOK_TRADE_OFF}</Caption1>
      {error !== null && (
        <MessageBar layout="multiline" intent="error" role="alert">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
    </>
  );
}
