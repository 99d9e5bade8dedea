// Removes what integration-global-setup.ts made for the run.
import { rmSync } from "node:fs";
import { PGLITE_TEMPLATE_VARIABLE } from "../gateway/support/new-pglite-directory";

export default function removeIntegrationTestFiles(): void {
  const folder = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (folder) rmSync(folder, { recursive: true, force: true });
  delete process.env[PGLITE_TEMPLATE_VARIABLE];
}
