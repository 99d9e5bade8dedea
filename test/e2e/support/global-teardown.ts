// Removes the builds global-setup.ts made for the run.
import { rmSync } from "node:fs";
import { SHARED_BUILD_VARIABLES } from "../../support/shared-builds";

export default function removeBrowserTestBuilds(): void {
  for (const variable of Object.values(SHARED_BUILD_VARIABLES)) {
    const folder = process.env[variable];
    if (folder) rmSync(folder, { recursive: true, force: true });
    delete process.env[variable];
  }
}
