import { createRoot } from "react-dom/client";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { App } from "./App";

export function mountTaskpane(container: HTMLElement): void {
  createRoot(container).render(
    <FluentProvider theme={webLightTheme}>
      <App />
    </FluentProvider>,
  );
}
