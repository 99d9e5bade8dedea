// The workbook's own storage: Office document settings, saved inside the workbook file.
// The engine keeps the workbook's request keys here, so they travel with the workbook
// when it is shared and two workbooks never mix their refresh plans.
import type { KeyValueStorage } from "../core/environment";

/** The part of Office.Settings this adapter uses (Office.Settings fits it). */
export interface DocumentSettings {
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  remove(name: string): void;
  saveAsync(callback: (result: { status: unknown; error?: { message: string } }) => void): void;
}

function save(settings: DocumentSettings): Promise<void> {
  return new Promise((resolve, reject) => {
    settings.saveAsync((result) => {
      if (result.status === Office.AsyncResultStatus.Succeeded) resolve();
      else
        reject(new Error(`Saving the workbook's PCD settings failed: ${result.error?.message ?? "unknown"}`));
    });
  });
}

/**
 * Changes one setting and saves. Office keeps settings in memory and saveAsync writes all of
 * them, so a change whose save failed would still reach the file with the next successful save
 * (of the engine's key list, say): it is taken back before the failure is reported.
 */
async function change(settings: DocumentSettings, name: string, apply: () => void): Promise<void> {
  const before: unknown = settings.get(name);
  apply();
  try {
    await save(settings);
  } catch (error) {
    if (before === null || before === undefined) settings.remove(name);
    else settings.set(name, before);
    throw error;
  }
}

export function createDocumentSettingsStorage(settings: DocumentSettings, prefix = "pcd."): KeyValueStorage {
  // Office.Settings cannot enumerate its keys: remember the ones this session wrote.
  const written = new Set<string>();
  return {
    persistent: true,
    get: async <T>(key: string): Promise<T | undefined> => {
      const value: unknown = settings.get(prefix + key);
      return value === null || value === undefined ? undefined : (value as T);
    },
    set: async (key, value) => {
      await change(settings, prefix + key, () => settings.set(prefix + key, value));
      written.add(key);
    },
    delete: async (key) => {
      await change(settings, prefix + key, () => settings.remove(prefix + key));
      written.delete(key);
    },
    keys: async () => [...written],
  };
}

/** The document's settings when the host has them (Excel), else undefined (preview page, tests). */
export function documentSettings(): DocumentSettings | undefined {
  try {
    return typeof Office !== "undefined" ? (Office.context?.document?.settings ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}
