import { createRoot } from "react-dom/client";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { getRefreshRunner, getWorkbookActions } from "../host/browser-services";
import { getEngine } from "../host/shared-engine";
import { App } from "./App";
import { excelFormulaTarget } from "./excel-bridge";
import { describeError } from "./messages";
import { PaneServicesProvider, type PaneServices } from "./pane-services";

export function mountTaskpane(container: HTMLElement): void {
  const root = createRoot(container);
  let services: PaneServices;
  try {
    services = {
      engine: getEngine(),
      refresh: getRefreshRunner(),
      workbook: excelFormulaTarget,
      actions: getWorkbookActions(),
    };
  } catch (error) {
    // Rendered as text: the message may quote anything.
    root.render(<p role="alert">PCD could not start: {describeError(error)}</p>);
    return;
  }
  root.render(
    <FluentProvider theme={webLightTheme}>
      <PaneServicesProvider services={services}>
        <App />
      </PaneServicesProvider>
    </FluentProvider>,
  );
}
