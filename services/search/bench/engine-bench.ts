import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  bridgingSearchSchema,
  commercialSearchSchema,
  developmentSearchSchema,
  type LoanType,
  type SearchPayloadByType,
} from '@lsp/contracts';
import { contractOf, declaredAnswerSerializer, declaredSchemaValidator } from '@lsp/service-kit';
import { serializerCompiler as zodEncodingSerializer } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { searchPanel } from '../src/engine';
import { searchAnswer } from '../src/use-cases/search-runner';
import { loadDefaultPanel, type Panel } from '../src/panel';

/**
 * Engine time per search, per loan type, for the shipped panel and a panel ten times larger (each
 * lender cloned under new ids), to show how the cost grows with the panel. Pure CPU: no I/O is timed.
 * Aim: under 5 ms a search for the full panel.
 *
 * Then what the route's declared schemas cost around the engine (declareRoute): validating the body
 * and serialising the answer through the declared 200 schema, against plain JSON.stringify.
 */
const ITERATIONS = 400;
const WARMUP = 100;

const deals: { [T in LoanType]: SearchPayloadByType[T][] } = {
  development: [
    developmentSearchSchema.parse({
      projectName: 'A',
      purchasePrice: 1_000_000,
      buildCost: 1_500_000,
      gdv: 4_000_000,
      propertyLocation: 'London',
      propertyClass: 'Residential',
      buildTerm: 12,
      loanTerm: 18,
      maxLoanRequired: true,
    }),
    developmentSearchSchema.parse({
      projectName: 'B',
      purchasePrice: 400_000,
      buildCost: 600_000,
      gdv: 1_500_000,
      propertyLocation: 'NorthWest',
      propertyClass: 'MixedUse',
      buildTerm: 10,
      loanTerm: 15,
      netLoanRequired: 700_000,
    }),
  ],
  bridging: [
    bridgingSearchSchema.parse({
      projectName: 'A',
      loanTerm: 12,
      ownOrPurchase: 'Purchasing',
      purchasePrice: 500_000,
      currentValue: 520_000,
      purchaseCosts: 25_000,
      maxLoanRequired: true,
    }),
    bridgingSearchSchema.parse({
      projectName: 'B',
      bridgingType: 'bridgingRefurbishment',
      loanTerm: 9,
      currentValue: 300_000,
      buildCosts: 80_000,
      estimatedEndValueOfProperty: 450_000,
      refurbishmentLevel: 'Medium',
      netLoanRequired: 250_000,
    }),
    bridgingSearchSchema.parse({
      projectName: 'C',
      bridgingType: 'bridgingDeveloperExit',
      loanTerm: 12,
      estimatedEndValueOfProperty: 3_000_000,
      refinancedUnits: 6,
      maxLoanRequired: true,
    }),
    bridgingSearchSchema.parse({
      projectName: 'D',
      bridgingType: 'bridgingPreconstruction',
      loanTerm: 12,
      currentValue: 800_000,
      planningPermissionType: 'DetailedPlanning',
      netLoanRequired: 400_000,
    }),
  ],
  commercial: [
    commercialSearchSchema.parse({
      projectName: 'A',
      mortgageTerm: 25,
      currentValue: 1_000_000,
      grossMonthlyRentalIncome: 6000,
      fixedRateTerm: 'FiveYear',
      maxLoanRequired: true,
    }),
    commercialSearchSchema.parse({
      projectName: 'B',
      mortgageTerm: 15,
      ownOrPurchase: 'Purchasing',
      purchasePrice: 750_000,
      purchaseCosts: 40_000,
      grossMonthlyRentalIncome: 5000,
      mortgageInterestType: 'Variable',
      loanRepaymentType: 'Repayment',
      netLoanRequired: 450_000,
    }),
  ],
};

function enlarge(panel: Panel, times: number): Panel {
  const lenders = Array.from({ length: times }, (_, copy) =>
    panel.lenders.map((lender) => ({
      ...lender,
      id: `${lender.id}-${copy}`,
      name: `${lender.name} ${copy}`,
    })),
  ).flat();
  return { ...panel, version: `${panel.version}x${times}`, lenders };
}

function measure<T extends LoanType>(loanType: T, panel: Panel) {
  const payloads = deals[loanType];
  let offers = 0;
  for (let i = 0; i < WARMUP; i += 1) searchPanel(loanType, payloads[i % payloads.length], panel);
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const started = performance.now();
    offers += searchPanel(loanType, payloads[i % payloads.length], panel).offers.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return {
    mean: times.reduce((s, t) => s + t, 0) / times.length,
    p50: at(0.5),
    p99: at(0.99),
    offersPerSearch: offers / ITERATIONS,
  };
}

const full = loadDefaultPanel();
const panels = [
  { label: `full panel (${full.lenders.length} lenders)`, panel: full },
  { label: `10x panel (${full.lenders.length * 10} lenders)`, panel: enlarge(full, 10) },
];
const rows: string[] = [];
for (const { label, panel } of panels) {
  for (const loanType of ['development', 'bridging', 'commercial'] as const) {
    const r = measure(loanType, panel);
    rows.push(
      `${label.padEnd(26)} ${loanType.padEnd(12)} mean ${r.mean.toFixed(3)} ms  p50 ${r.p50.toFixed(3)} ms  p99 ${r.p99.toFixed(3)} ms  offers/search ${r.offersPerSearch.toFixed(1)}`,
    );
  }
}
process.stdout.write(
  `engine time per search (${ITERATIONS} searches each, after ${WARMUP} warm-up)\n${rows.join('\n')}\n`,
);

/** Calls per serialisation figure: each is well under a millisecond, so more than the engine's. */
const CALLS = 2000;

/** Mean ms of `fn` over CALLS calls after as many to warm up. */
function meanMs(fn: () => unknown): number {
  for (let i = 0; i < CALLS; i += 1) fn();
  const started = performance.now();
  for (let i = 0; i < CALLS; i += 1) fn();
  return (performance.now() - started) / CALLS;
}

const contractRows: string[] = [];
for (const loanType of ['development', 'bridging', 'commercial'] as const) {
  const contract = contractOf(`${loanType}Search`);
  const payload = deals[loanType][0];
  const answer = searchAnswer(loanType, payload, searchPanel(loanType, payload, full), randomUUID());
  const route = {
    schema: contract.responses[200]!.schema as z.ZodType,
    method: contract.method,
    url: contract.path,
    httpStatus: '200',
  };
  const serialise = declaredAnswerSerializer(route);
  const encode = zodEncodingSerializer(route);
  const validate = declaredSchemaValidator({
    schema: contract.body as z.ZodType,
    method: contract.method,
    url: contract.path,
    httpPart: 'body',
  });
  const body = JSON.parse(JSON.stringify(payload));
  const plain = meanMs(() => JSON.stringify(answer));
  const declared = meanMs(() => serialise(answer));
  const encoded = meanMs(() => encode(answer));
  const validation = meanMs(() => validate(body));
  contractRows.push(
    `${loanType.padEnd(12)} answer ${(JSON.stringify(answer).length / 1024).toFixed(1).padStart(5)} KB  ` +
      `JSON.stringify ${plain.toFixed(3)} ms  through the declared schema ${declared.toFixed(3)} ms ` +
      `(zod encode ${encoded.toFixed(3)} ms)  ` +
      `body validation ${validation.toFixed(3)} ms`,
  );
}
process.stdout.write(
  `the route's declared schemas per search, full panel (${CALLS} calls each, after ${CALLS} warm-up)\n${contractRows.join('\n')}\n`,
);
