import { createHash } from 'node:crypto';
import { REGIONS, type BridgingType, type PropertyClass, type Region } from '@lsp/contracts';
import type { BridgingProduct, CommercialProduct, DevelopmentProduct, Lender, Panel } from './schema';
import { LENDER_KINDS } from './schema';

/**
 * Builds the default lender panel from market figures (LENDING.md) with a seeded random generator, so
 * the same seed always yields the same file. Lender names are fictional. Each kind of lender gets the
 * appetite its real counterparts show: banks and building societies lend cheaper and lower, debt funds
 * and family offices higher and dearer, specialists in between.
 */
type Kind = (typeof LENDER_KINDS)[number];

const LENDERS: [string, Kind][] = [
  ['Albion & Mercer Bank', 'clearing bank'],
  ['Caledon Commercial Bank', 'clearing bank'],
  ['Union Wharf Bank', 'clearing bank'],
  ['Westbury Midland Bank', 'clearing bank'],
  ['Keystone Reach Bank', 'challenger bank'],
  ['Larkfield Bank', 'challenger bank'],
  ['Oakhurst Private Bank', 'challenger bank'],
  ['Tamar Trust Bank', 'challenger bank'],
  ['Sovereign Quay Bank', 'challenger bank'],
  ['Redbrook Bank', 'challenger bank'],
  ['Fenwick Lane Bank', 'challenger bank'],
  ['Northbridge Savings Bank', 'challenger bank'],
  ['Arden Vale Bank', 'challenger bank'],
  ['Cinderford Commercial Bank', 'challenger bank'],
  ['Ashdown Building Society', 'building society'],
  ['Marlow Vale Building Society', 'building society'],
  ['Penrith & Eden Building Society', 'building society'],
  ['Severnside Building Society', 'building society'],
  ['Chiltern Hundreds Building Society', 'building society'],
  ['Glenrothes Building Society', 'building society'],
  ['Tyne Valley Building Society', 'building society'],
  ['Brecon Beacon Building Society', 'building society'],
  ['Thameside Capital', 'specialist lender'],
  ['Pennine Bridging', 'specialist lender'],
  ['Harbourgate Finance', 'specialist lender'],
  ['Carrick Property Lending', 'specialist lender'],
  ['Blackwater Bridging', 'specialist lender'],
  ['Meridian Property Finance', 'specialist lender'],
  ['Kestrel Lending', 'specialist lender'],
  ['Stonebridge Capital Partners', 'specialist lender'],
  ['Wrenfield Finance', 'specialist lender'],
  ['Halcyon Short-Term Lending', 'specialist lender'],
  ['Beacon Hill Lending', 'specialist lender'],
  ['Granite Quay Finance', 'specialist lender'],
  ['Foxley Property Capital', 'specialist lender'],
  ['Saltmarsh Lending', 'specialist lender'],
  ['Corbridge Finance', 'specialist lender'],
  ['Ironbridge Property Loans', 'specialist lender'],
  ['Lantern Bridging', 'specialist lender'],
  ['Northgate Property Finance', 'specialist lender'],
  ['Greystone Lending', 'specialist lender'],
  ['Tavistock Bridging', 'specialist lender'],
  ['Silverdale Capital', 'specialist lender'],
  ['Mortlake Finance', 'specialist lender'],
  ['Hartwell Property Lending', 'specialist lender'],
  ['Cobalt Bridge Finance', 'specialist lender'],
  ['Castlebar Real Estate Debt', 'debt fund'],
  ['Helmsley Development Capital', 'debt fund'],
  ['Ravenscourt Debt Partners', 'debt fund'],
  ['Aldgate Structured Finance', 'debt fund'],
  ['Orchard Street Capital', 'debt fund'],
  ['Fairmile Development Finance', 'debt fund'],
  ['Bellfield Credit Partners', 'debt fund'],
  ['Kingsmead Real Estate Credit', 'debt fund'],
  ['Quayside Development Lending', 'debt fund'],
  ['Marchmont Capital', 'debt fund'],
  ['Ember Lane Credit', 'debt fund'],
  ['Sterling Row Debt Fund', 'debt fund'],
  ['Ashcombe Family Office', 'family office'],
  ['Wexford House Capital', 'family office'],
  ['Linden Estates Finance', 'family office'],
  ['Pelham Private Capital', 'family office'],
  ['Rosewood Family Capital', 'family office'],
  ['Dunmore Private Lending', 'family office'],
];

/** Building societies lend around home; these are the regions each home region reaches. */
const NEIGHBOURS: Record<Region, Region[]> = {
  London: ['SouthEast', 'EastAnglia'],
  SouthEast: ['London', 'SouthWest', 'EastAnglia'],
  SouthWest: ['SouthEast', 'Wales'],
  EastAnglia: ['London', 'SouthEast', 'Midlands'],
  Midlands: ['NorthWest', 'EastAnglia', 'Wales'],
  NorthWest: ['Midlands', 'NorthEast', 'Wales'],
  NorthEast: ['NorthWest', 'Scotland'],
  Wales: ['SouthWest', 'Midlands', 'NorthWest'],
  Scotland: ['NorthEast', 'NorthernIreland'],
  NorthernIreland: ['Scotland'],
};
const SOCIETY_HOMES: Region[] = [
  'SouthEast',
  'SouthEast',
  'NorthWest',
  'SouthWest',
  'SouthEast',
  'Scotland',
  'NorthEast',
  'Wales',
];

/** mulberry32: small, fast and good enough to make a panel that reads as varied. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const between = (low: number, high: number, step: number) => {
    const steps = Math.round((high - low) / step);
    return Number((low + Math.floor(next() * (steps + 1)) * step).toFixed(6));
  };
  const chance = (p: number) => next() < p;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const some = <T>(items: readonly T[], count: number): T[] => {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]);
    return out;
  };
  return { next, between, chance, pick, some };
}
type Rng = ReturnType<typeof seeded>;

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

type Tier = 'conservative' | 'mainstream' | 'aggressive';
const tierOf = (kind: Kind): Tier =>
  kind === 'clearing bank' || kind === 'building society'
    ? 'conservative'
    : kind === 'debt fund' || kind === 'family office'
      ? 'aggressive'
      : 'mainstream';

function regionsFor(kind: Kind, index: number, rng: Rng): Region[] {
  const mainland = REGIONS.filter((r) => r !== 'NorthernIreland');
  switch (kind) {
    case 'clearing bank':
      return rng.chance(0.5) ? [...REGIONS] : [...mainland];
    case 'building society': {
      const home = SOCIETY_HOMES[index % SOCIETY_HOMES.length];
      return [home, ...NEIGHBOURS[home]];
    }
    case 'family office':
      return rng.chance(0.5) ? ['London', 'SouthEast'] : ['London', 'SouthEast', 'SouthWest', 'EastAnglia'];
    case 'debt fund':
      return [
        'London',
        'SouthEast',
        'EastAnglia',
        'Midlands',
        'NorthWest',
        'SouthWest',
        ...(rng.chance(0.4) ? (['Scotland'] as Region[]) : []),
      ];
    default: {
      const england: Region[] = REGIONS.filter((r) => r !== 'Scotland' && r !== 'NorthernIreland');
      if (rng.chance(0.15)) return ['London', 'SouthEast', 'EastAnglia'];
      const dropped: Region[] = rng.some(
        england.filter((r) => r !== 'London'),
        rng.pick([0, 0, 1, 2]),
      );
      const served = england.filter((r) => !dropped.includes(r));
      return rng.chance(0.35) ? [...served, 'Scotland'] : served;
    }
  }
}

const RISKIER: PropertyClass[] = [
  'Hotel',
  'Leisure',
  'CareRetirement',
  'Medical',
  'IndustrialHeavy',
  'Education',
  'LandWithoutPlanning',
];

function refusedFor(tier: Tier, rng: Rng): PropertyClass[] {
  if (tier === 'conservative')
    return [
      'LandWithoutPlanning',
      'IndustrialHeavy',
      ...rng.some(['Hotel', 'Leisure', 'Medical', 'Education'] as PropertyClass[], 2),
    ];
  if (tier === 'mainstream') return rng.some(RISKIER, rng.pick([1, 2, 3, 4]));
  return rng.chance(0.5) ? ['LandWithoutPlanning'] : [];
}

/** Lower caps where lenders see more risk: trading businesses and specialist stock. */
function classCaps(base: number, refused: PropertyClass[], rng: Rng): Partial<Record<PropertyClass, number>> {
  const caps: Partial<Record<PropertyClass, number>> = {};
  const cut = (cls: PropertyClass, by: number) => {
    if (!refused.includes(cls)) caps[cls] = Number(Math.max(0.4, base - by).toFixed(2));
  };
  cut('Hotel', 0.1);
  cut('Leisure', 0.1);
  cut('CareRetirement', 0.05);
  cut('Medical', 0.05);
  cut('IndustrialHeavy', 0.1);
  if (rng.chance(0.5)) cut('Retail', 0.05);
  if (rng.chance(0.5)) cut('HMO', 0.05);
  if (rng.chance(0.4)) cut('Student', 0.05);
  if (rng.chance(0.3)) cut('MixedUse', 0.05);
  return caps;
}

function developmentProduct(id: string, kind: Kind, rng: Rng): DevelopmentProduct {
  const tier = tierOf(kind);
  const refused = refusedFor(tier, rng);
  if (tier === 'conservative') {
    const top = rng.between(0.55, 0.6, 0.05);
    const maxLoan = rng.between(15_000_000, 30_000_000, 5_000_000);
    return {
      id: `${id}-development`,
      name: 'Residential Development Loan',
      loanType: 'development',
      minLoan: rng.between(1_000_000, 2_000_000, 500_000),
      maxLoan,
      minTermMonths: 12,
      maxTermMonths: rng.pick([24, 30, 36]),
      refusedPropertyClasses: refused,
      entityTypes: ['Company'],
      fees: {
        arrangementFeePct: rng.between(0.01, 0.015, 0.0025),
        minArrangementFee: 10_000,
        exitFeePct: rng.between(0, 0.005, 0.0025),
        otherCosts: rng.between(4000, 7500, 500),
      },
      interestTreatment: 'rolled',
      maxLtgdvBands: [
        { upToLoan: 5_000_000, maxRatio: top },
        { upToLoan: maxLoan, maxRatio: Number((top - 0.05).toFixed(2)) },
      ],
      maxLtgdvByClass: classCaps(top, refused, rng),
      maxLtc: rng.between(0.7, 0.8, 0.05),
      maxLandAdvance: rng.between(0.5, 0.6, 0.05),
      maxBuildFunding: 1,
      rateCard: [
        { maxRatio: 0.5, ratePerYear: rng.between(0.065, 0.0725, 0.0025) },
        { maxRatio: 0.6, ratePerYear: rng.between(0.075, 0.085, 0.0025) },
      ],
      minProfitOnGdv: 0.2,
      monitoringFeePerMonth: rng.between(900, 1500, 100),
    };
  }
  const aggressive = tier === 'aggressive';
  const top = aggressive ? rng.between(0.7, 0.75, 0.05) : rng.between(0.6, 0.7, 0.05);
  const maxLoan = aggressive
    ? rng.between(20_000_000, 50_000_000, 5_000_000)
    : rng.between(5_000_000, 15_000_000, 2_500_000);
  return {
    id: `${id}-development`,
    name: aggressive
      ? rng.pick(['Stretch Senior Development', 'Development Finance Plus', 'High-Leverage Development'])
      : rng.pick(['Development Finance', 'Ground-Up Development', 'Development Loan']),
    loanType: 'development',
    minLoan: aggressive ? rng.between(500_000, 2_000_000, 250_000) : rng.between(150_000, 500_000, 50_000),
    maxLoan,
    minTermMonths: 6,
    maxTermMonths: aggressive ? rng.pick([30, 36]) : rng.pick([18, 24, 24, 30]),
    refusedPropertyClasses: refused,
    entityTypes: rng.chance(0.7) ? ['Company'] : ['Company', 'Individual'],
    fees: {
      arrangementFeePct: aggressive ? rng.between(0.02, 0.025, 0.0025) : rng.between(0.015, 0.02, 0.0025),
      minArrangementFee: rng.between(2500, 7500, 2500),
      exitFeePct: aggressive ? rng.between(0.01, 0.02, 0.0025) : rng.between(0.005, 0.015, 0.0025),
      otherCosts: rng.between(2500, 6000, 500),
    },
    interestTreatment: rng.chance(0.85) ? 'rolled' : 'retained',
    maxLtgdvBands: [
      { upToLoan: aggressive ? 10_000_000 : 2_500_000, maxRatio: top },
      { upToLoan: maxLoan, maxRatio: Number((top - 0.05).toFixed(2)) },
    ],
    maxLtgdvByClass: classCaps(top, refused, rng),
    maxLtc: aggressive ? rng.between(0.85, 0.9, 0.025) : rng.between(0.8, 0.875, 0.025),
    maxLandAdvance: aggressive ? rng.between(0.65, 0.75, 0.05) : rng.between(0.55, 0.7, 0.05),
    maxBuildFunding: 1,
    rateCard: aggressive
      ? [
          { maxRatio: 0.55, ratePerYear: rng.between(0.0825, 0.09, 0.0025) },
          { maxRatio: 0.65, ratePerYear: rng.between(0.095, 0.105, 0.0025) },
          { maxRatio: 0.75, ratePerYear: rng.between(0.11, 0.125, 0.0025) },
        ]
      : [
          { maxRatio: 0.55, ratePerYear: rng.between(0.075, 0.085, 0.0025) },
          { maxRatio: 0.65, ratePerYear: rng.between(0.085, 0.1, 0.0025) },
          { maxRatio: 0.7, ratePerYear: rng.between(0.095, 0.11, 0.0025) },
        ],
    minProfitOnGdv: aggressive ? rng.between(0.15, 0.175, 0.025) : rng.between(0.175, 0.2, 0.025),
    monitoringFeePerMonth: rng.between(600, 1200, 100),
  };
}

function bridgingProduct(
  id: string,
  kind: Kind,
  rng: Rng,
  variant: 'main' | 'refurbishment' = 'main',
): BridgingProduct {
  const tier = tierOf(kind);
  const refused = refusedFor(tier, rng);
  const conservative = tier === 'conservative';
  const aggressive = tier === 'aggressive' || variant === 'refurbishment';
  const top = conservative ? rng.between(0.6, 0.7, 0.05) : 0.75;
  const maxLoan = conservative
    ? rng.between(1_000_000, 3_000_000, 500_000)
    : aggressive
      ? rng.between(10_000_000, 25_000_000, 2_500_000)
      : rng.between(3_500_000, 15_000_000, 500_000);
  const secondBand = Math.min(conservative ? 1_000_000 : 2_500_000, maxLoan);
  const bands =
    secondBand < maxLoan
      ? [
          { upToLoan: secondBand, maxRatio: top },
          { upToLoan: maxLoan, maxRatio: Number((top - rng.pick([0.05, 0.1])).toFixed(2)) },
        ]
      : [{ upToLoan: maxLoan, maxRatio: top }];
  const useCases: BridgingType[] =
    variant === 'refurbishment'
      ? ['bridgingRefurbishment']
      : conservative
        ? [
            'bridgingPurchaseOrRefinance',
            ...(rng.chance(0.5) ? (['bridgingRefurbishment'] as BridgingType[]) : []),
          ]
        : [
            'bridgingPurchaseOrRefinance',
            ...rng.some(
              ['bridgingRefurbishment', 'bridgingDeveloperExit', 'bridgingPreconstruction'] as BridgingType[],
              aggressive ? 3 : rng.pick([1, 2, 3]),
            ),
          ];
  const offersRefurb = useCases.includes('bridgingRefurbishment');
  const base = conservative
    ? rng.between(0.0045, 0.0055, 0.0001)
    : aggressive
      ? rng.between(0.0055, 0.0075, 0.0001)
      : rng.between(0.0045, 0.0065, 0.0001);
  const step = (extra: number) => Number((base + extra).toFixed(4));
  const rateCard = [
    { maxRatio: 0.5, ratePerMonth: base },
    { maxRatio: 0.65, ratePerMonth: step(0.0015) },
    ...(top > 0.65 ? [{ maxRatio: 0.7, ratePerMonth: step(0.0035) }] : []),
    ...(top > 0.7 || !conservative ? [{ maxRatio: 0.75, ratePerMonth: step(0.0045) }] : []),
  ];
  const landLtvByPlanning: BridgingProduct['landLtvByPlanning'] = {};
  if (!conservative) {
    landLtvByPlanning.DetailedPlanning = rng.between(0.6, 0.7, 0.05);
    if (rng.chance(aggressive ? 0.9 : 0.6)) landLtvByPlanning.OutlinePlanning = rng.between(0.55, 0.6, 0.05);
    if (rng.chance(aggressive ? 0.6 : 0.25)) landLtvByPlanning.NoPlanning = rng.between(0.4, 0.5, 0.05);
  } else if (rng.chance(0.4)) {
    landLtvByPlanning.DetailedPlanning = 0.5;
  }
  const worstCap = Math.max(top, ...Object.values(landLtvByPlanning));
  const refurbMaxLtgdv = rng.between(0.65, 0.7, 0.05);
  const devExit = useCases.includes('bridgingDeveloperExit') ? rng.between(0.7, 0.75, 0.05) : undefined;
  // The card must price every cap the product can reach.
  const highest = Math.max(worstCap, offersRefurb ? refurbMaxLtgdv : 0, devExit ?? 0);
  if (rateCard[rateCard.length - 1].maxRatio < highest)
    rateCard.push({ maxRatio: highest, ratePerMonth: step(0.005) });
  return {
    id: `${id}-${variant === 'refurbishment' ? 'refurbishment-bridge' : 'bridge'}`,
    name:
      variant === 'refurbishment'
        ? 'Heavy Refurbishment Bridge'
        : conservative
          ? 'Short-Term Bridging Loan'
          : rng.pick([
              'Residential & Commercial Bridge',
              'Bridging Loan',
              'Auction & Chain-Break Bridge',
              'Flexible Bridge',
            ]),
    loanType: 'bridging',
    minLoan: conservative ? 50_000 : rng.between(25_000, 100_000, 25_000),
    maxLoan,
    minTermMonths: conservative ? 3 : 1,
    maxTermMonths: conservative ? 12 : aggressive ? 24 : rng.pick([12, 18, 18, 24]),
    refusedPropertyClasses: refused,
    entityTypes: conservative && rng.chance(0.5) ? ['Individual'] : ['Individual', 'Company'],
    fees: {
      arrangementFeePct: conservative ? 0.01 : rng.between(0.015, 0.02, 0.0025),
      minArrangementFee: conservative ? 1000 : rng.between(1000, 2500, 500),
      exitFeePct: conservative ? 0 : rng.chance(0.6) ? 0 : rng.between(0.005, 0.01, 0.0025),
      otherCosts: rng.between(1500, 3500, 250),
    },
    interestTreatment:
      variant === 'refurbishment'
        ? 'rolled'
        : conservative
          ? rng.pick(['retained', 'serviced'] as const)
          : rng.pick(['retained', 'retained', 'retained', 'rolled', 'rolled', 'serviced'] as const),
    useCases,
    maxLtvBands: bands,
    maxLtvByClass: classCaps(top, refused, rng),
    maxPurchasePriceLtv: conservative ? rng.between(0.6, 0.75, 0.05) : rng.between(0.8, 0.9, 0.05),
    landLtvByPlanning,
    refurbishment: offersRefurb
      ? {
          levels:
            variant === 'refurbishment' || aggressive
              ? ['Light', 'Medium', 'Heavy']
              : conservative
                ? ['Light']
                : rng.chance(0.5)
                  ? ['Light', 'Medium']
                  : ['Light', 'Medium', 'Heavy'],
          heavyMaxLtv: rng.between(0.6, 0.7, 0.05),
          worksFunding: conservative ? rng.between(0.5, 0.75, 0.25) : 1,
          maxLtgdv: refurbMaxLtgdv,
          ratePremiumPerMonth: {
            Light: 0,
            Medium: rng.between(0.0005, 0.0015, 0.0005),
            Heavy: rng.between(0.002, 0.0035, 0.0005),
          },
          heavyExitFeePct: rng.between(0.01, 0.015, 0.0025),
        }
      : undefined,
    developerExitMaxLtv: devExit,
    rateCard,
    minInterestMonths: conservative ? 1 : rng.pick([1, 1, 2, 3]),
  };
}

function commercialProduct(id: string, kind: Kind, rng: Rng): CommercialProduct {
  const tier = tierOf(kind);
  const refused = refusedFor(tier, rng).filter((cls) => cls !== 'IndustrialHeavy' || tier === 'conservative');
  const conservative = tier === 'conservative';
  const top = conservative ? rng.between(0.6, 0.7, 0.05) : rng.between(0.7, 0.75, 0.05);
  const maxLoan =
    kind === 'building society'
      ? rng.between(2_000_000, 5_000_000, 500_000)
      : conservative
        ? rng.between(10_000_000, 25_000_000, 5_000_000)
        : rng.between(3_000_000, 15_000_000, 1_000_000);
  const caps = classCaps(top, refused, rng);
  if (!refused.includes('Office') && conservative && rng.chance(0.5))
    caps.Office = Number((top - 0.05).toFixed(2));
  const base = conservative ? rng.between(0.055, 0.0625, 0.0025) : rng.between(0.0625, 0.0725, 0.0025);
  const firstBand = Math.min(conservative ? 2_000_000 : 1_000_000, maxLoan);
  return {
    id: `${id}-commercial`,
    name: conservative
      ? rng.pick(['Commercial Mortgage', 'Commercial Investment Mortgage', 'Business Premises Mortgage'])
      : rng.pick(['Commercial Term Loan', 'Semi-Commercial Mortgage', 'Investment Property Loan']),
    loanType: 'commercial',
    minLoan: conservative ? rng.between(100_000, 250_000, 50_000) : rng.between(75_000, 150_000, 25_000),
    maxLoan,
    minTermMonths: rng.pick([36, 60]),
    maxTermMonths: rng.pick([240, 300, 300, 360]),
    refusedPropertyClasses: refused,
    entityTypes: rng.chance(0.8) ? ['Individual', 'Company'] : ['Company'],
    fees: {
      arrangementFeePct: conservative ? rng.between(0.005, 0.01, 0.0025) : rng.between(0.01, 0.015, 0.0025),
      minArrangementFee: rng.between(1000, 2500, 500),
      exitFeePct: 0,
      otherCosts: rng.between(2000, 5000, 500),
    },
    maxLtvBands:
      firstBand < maxLoan
        ? [
            { upToLoan: firstBand, maxRatio: top },
            { upToLoan: maxLoan, maxRatio: Number((top - 0.05).toFixed(2)) },
          ]
        : [{ upToLoan: maxLoan, maxRatio: top }],
    maxLtvByClass: caps,
    acceptsOwnerOccupied: kind !== 'debt fund' && rng.chance(0.8),
    acceptsInvestment: true,
    repaymentTypes: rng.chance(0.85)
      ? ['InterestOnly', 'Repayment', 'Capital&Interest']
      : ['Repayment', 'Capital&Interest'],
    interestOnlyMaxLtv: rng.between(0.6, Math.min(0.7, top), 0.05),
    rateCard: [
      { maxRatio: 0.5, ratePerYear: base },
      { maxRatio: 0.65, ratePerYear: Number((base + rng.between(0.0035, 0.006, 0.0005)).toFixed(4)) },
      {
        maxRatio: Math.max(0.75, top),
        ratePerYear: Number((base + rng.between(0.009, 0.0125, 0.0005)).toFixed(4)),
      },
    ],
    variableAvailable: rng.chance(0.7),
    fixedRatePremium: {
      TwoYear: rng.between(0.0015, 0.003, 0.0005),
      FiveYear: rng.between(0.0035, 0.005, 0.0005),
      ...(conservative && rng.chance(0.6) ? { TenYear: rng.between(0.006, 0.009, 0.0005) } : {}),
    },
    rentalCover: {
      capitalAndInterest: rng.pick([1.25, 1.25, 1.3]),
      interestOnly: rng.pick([1.45, 1.45, 1.5]),
      longTermYears: 15,
      stressMargin: rng.pick([0.015, 0.02, 0.02]),
      stressFloor: rng.between(0.055, 0.065, 0.005),
    },
    minLeaseRemaining: conservative
      ? rng.pick(['OneToThreeYears', 'MoreThanThreeYears'] as const)
      : rng.pick(['LessThanYear', 'OneToThreeYears'] as const),
  };
}

export const DEFAULT_PANEL_SEED = 20251101;

export function generatePanel(seed = DEFAULT_PANEL_SEED): Panel {
  const rng = seeded(seed);
  const lenders: Lender[] = LENDERS.map(([name, kind], index) => {
    const id = slug(name);
    const products: Lender['products'] = [];
    // A lender whose name says what it does sticks to it (a "Bridging" house offers no 25-year mortgage).
    const shortTermOnly = /Bridg|Short-Term/.test(name);
    const wants = {
      development: shortTermOnly
        ? 0
        : {
            'clearing bank': 0.5,
            'challenger bank': 0.5,
            'building society': 0,
            'specialist lender': 0.4,
            'debt fund': 1,
            'family office': 0.35,
          }[kind],
      bridging: {
        'clearing bank': 0,
        'challenger bank': 0.6,
        'building society': 0.6,
        'specialist lender': 1,
        'debt fund': 0.5,
        'family office': 1,
      }[kind],
      commercial:
        shortTermOnly || /Development/.test(name)
          ? 0
          : {
              'clearing bank': 1,
              'challenger bank': 0.9,
              'building society': 0.8,
              'specialist lender': 0.45,
              'debt fund': 0,
              'family office': 0,
            }[kind],
    };
    if (rng.chance(wants.development)) products.push(developmentProduct(id, kind, rng));
    if (rng.chance(wants.bridging)) {
      products.push(bridgingProduct(id, kind, rng));
      if (kind === 'specialist lender' && rng.chance(0.25))
        products.push(bridgingProduct(id, kind, rng, 'refurbishment'));
    }
    if (rng.chance(wants.commercial)) products.push(commercialProduct(id, kind, rng));
    // Every lender on the panel lends something: fall back to its kind's core product.
    if (products.length === 0) {
      if (kind === 'building society' || kind === 'clearing bank')
        products.push(commercialProduct(id, kind, rng));
      else if (kind === 'debt fund') products.push(developmentProduct(id, kind, rng));
      else products.push(bridgingProduct(id, kind, rng));
    }
    return { id, name, kind, regions: regionsFor(kind, index, rng), products };
  });
  const effectiveFrom = '2025-11-01';
  return {
    kind: 'lender-panel',
    // The version names the content: any change to the lenders gives a new version, never a clash.
    version: `${effectiveFrom}.${createHash('sha256').update(JSON.stringify(lenders)).digest('hex').slice(0, 10)}`,
    effectiveFrom,
    description: `Default panel of ${lenders.length} lenders built from 2021-2025 UK market figures; names are fictional`,
    lenders,
  };
}
