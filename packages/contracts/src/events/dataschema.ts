/** The `dataschema` an event of this type and version travels with. */
export const dataschemaOf = (type: string, version: number) => `/schemas/${type}/v${version}`;

/** The version a `dataschema` names (`/schemas/dip.created/v2` → 2), or null when it names none. */
export function dataschemaVersion(dataschema: string): number | null {
  const match = /\/v(\d+)$/.exec(dataschema);
  return match ? Number(match[1]) : null;
}
