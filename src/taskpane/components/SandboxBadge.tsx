import { Badge } from "@fluentui/react-components";

/** Shown in the header whenever the pane works against the sandbox: its values are dummies. */
export function SandboxBadge(): React.JSX.Element {
  return (
    <Badge
      appearance="filled"
      color="warning"
      size="large"
      data-testid="sandbox-badge"
      aria-label="Sandbox environment: test data, not real prices"
    >
      SANDBOX
    </Badge>
  );
}
