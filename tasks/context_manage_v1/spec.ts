/** The spec of one generated service module, and what the renderers derive from it. */

export type FieldType = 'str' | 'int' | 'float' | 'bool' | 'date';

export interface Field {
  name: string;
  type: FieldType;
}

/** How a tax function gets its rate: from config (right), or from one of four kinds of stale copy. */
export type TaxStyle = 'config' | 'module-constant' | 'named-copy' | 'private-constant' | 'default-arg';

export const STALE_RATE = '0.07';

export interface TaxSpec {
  fn: string;
  /** What the gross amount is, for the docstring. */
  what: string;
  style: TaxStyle;
}

export interface ServiceSpec {
  module: string;
  summary: string;
  about: string;
  entity: string;
  noun: string;
  plural: string;
  id: string;
  fields: Field[];
  groupBy: string;
  tax?: TaxSpec;
  /** config names the extra code uses. */
  configNames?: string[];
  extra?: string;
}

export function dateField(spec: ServiceSpec): string {
  return spec.fields.find((f) => f.type === 'date')?.name ?? spec.id;
}

export function amountField(spec: ServiceSpec): Field {
  return (
    spec.fields.find((f) => f.type === 'float') ??
    spec.fields.find((f) => f.type === 'int') ?? { name: 'id', type: 'int' }
  );
}

export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
