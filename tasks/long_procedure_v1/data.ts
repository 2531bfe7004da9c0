/**
 * The shipments dataset and every value the seven steps must produce, derived here once so the
 * checks and the reference solution agree by construction. Costs are distinct integers, so every
 * sort is unambiguous.
 */

export const HEADER = ['id', 'carrier', 'origin', 'weight_kg', 'cost', 'status'] as const;

export interface Shipment {
  id: string;
  carrier: string;
  origin: string;
  weight_kg: number;
  cost: number;
  status: 'delivered' | 'in_transit' | 'returned';
}

const CARRIERS = ['Alder', 'Birch', 'Cedar', 'Dogwood', 'Elm'];
const ORIGINS = ['Rotterdam', 'Antwerp', 'Hamburg', 'Gdansk', 'Le Havre', 'Bilbao', 'Genoa'];

const SHIPMENTS: readonly Shipment[] = Array.from({ length: 40 }, (_, k) => {
  const i = k + 1;
  return {
    id: `S${String(i).padStart(3, '0')}`,
    carrier: CARRIERS[(i * 7) % CARRIERS.length] ?? '',
    origin: ORIGINS[(i * 3) % ORIGINS.length] ?? '',
    weight_kg: ((i * 389) % 1700) + 150,
    cost: ((i * 173) % 911) + 120,
    status: i % 4 === 0 ? 'in_transit' : i % 7 === 0 ? 'returned' : 'delivered',
  };
});

export const row = (s: Shipment): string[] => [
  s.id,
  s.carrier,
  s.origin,
  String(s.weight_kg),
  String(s.cost),
  s.status,
];

export const csv = (rows: readonly (readonly string[])[]): string =>
  rows.map((r) => `${r.join(',')}\n`).join('');

export const DATA_CSV = csv([[...HEADER], ...SHIPMENTS.map(row)]);

export const DELIVERED = SHIPMENTS.filter((s) => s.status === 'delivered');
export const BY_COST = [...DELIVERED].sort((a, b) => b.cost - a.cost);
export const TOP8 = BY_COST.slice(0, 8);
export const TOP8_COST = TOP8.reduce((n, s) => n + s.cost, 0);

export const CARRIER_HEADER = ['carrier', 'shipments', 'total_cost'] as const;
export const CARRIER_TOTALS: readonly (readonly [string, number, number])[] = [
  ...new Set(DELIVERED.map((s) => s.carrier)),
]
  .sort()
  .map((c) => {
    const mine = DELIVERED.filter((s) => s.carrier === c);
    return [c, mine.length, mine.reduce((n, s) => n + s.cost, 0)] as const;
  });

const ranked = [...CARRIER_TOTALS].sort((a, b) => b[2] - a[2]);
if (new Set(SHIPMENTS.map((s) => s.cost)).size !== SHIPMENTS.length || ranked[0]?.[2] === ranked[1]?.[2])
  throw new Error('long_procedure_v1 data must have distinct costs and one top carrier');
export const TOP_CARRIER = ranked[0]?.[0] ?? '';
