// How long browsers and Office may keep each file. Chunks whose name carries webpack's
// content hash never change under that name: cached for a year. Everything else (the
// page, functions.json, the manifest, the entry bundles the manifest names by fixed
// name, icons) is revalidated on every use, so a new deployment is seen at once.
const HASHED = /\.[0-9a-f]{8,}\.(js|css)(\.map)?$/;

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";

export function cacheControlFor(pathname: string): string {
  return HASHED.test(pathname) ? IMMUTABLE : REVALIDATE;
}
