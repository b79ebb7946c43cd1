import { z } from 'zod';
import { defineEvent } from '../events/define';
import { CONTACT_PREFERENCES, LOAN_TYPES, PROPERTIES_OWNED } from '../common/enums';
import { PANEL_CHANGES } from './panel-ops';
import { loanOfferSchema } from './result';

export const SEARCH_EVENT_TYPES = {
  completed: 'search.completed',
  saved: 'search.saved',
  leadCaptured: 'lead.captured',
  panelActivated: 'panel.activated',
  repriced: 'search.repriced',
} as const;

/** Published on every search run, whether or not anyone is signed in. */
export const searchCompletedEventSchema = z.object({
  searchRunId: z.string().min(1),
  loanType: z.enum(LOAN_TYPES),
  resultCount: z.number().int().nonnegative(),
  declinedCount: z.number().int().nonnegative(),
  /** Lowest annual interest rate among the offers (fraction); null when nothing was offered. */
  bestRate: z.number().finite().nonnegative().nullable(),
  durationMs: z.number().finite().nonnegative(),
  panelVersion: z.string().min(1),
  userId: z.string().optional(),
});
export type SearchCompletedEvent = z.infer<typeof searchCompletedEventSchema>;

export const searchSavedEventSchema = z.object({
  searchId: z.string().min(1),
  userId: z.string().min(1),
  loanType: z.enum(LOAN_TYPES),
  projectName: z.string().optional(),
  resultCount: z.number().int().nonnegative(),
  /**
   * The offers as the search service computed them, in the order the user saw them: only offers whose
   * figures match the server's own record of the run (a client-posted copy could be forged). A DIP is
   * made from one of these by its index.
   */
  offers: z.array(loanOfferSchema),
  /** The search form as saved: the DIP's property and project details come from it. */
  searchData: z.record(z.string(), z.unknown()),
  savedAt: z.string().datetime(),
  /**
   * The lender panel version the offers were priced under (the run's); absent when no offer was
   * verified, and in events written before it was carried.
   */
  panelVersion: z.string().min(1).optional(),
});
export type SearchSavedEvent = z.infer<typeof searchSavedEventSchema>;

export const leadCapturedEventSchema = z.object({
  leadId: z.string().min(1),
  name: z.string().min(1),
  email: z.string().min(1),
  phone: z.string().optional(),
  propertiesOwned: z.enum(PROPERTIES_OWNED),
  contactPreference: z.enum(CONTACT_PREFERENCES),
  searchType: z.enum(LOAN_TYPES),
  lendabilityScore: z.number().int().min(0).max(100).optional(),
});
export type LeadCapturedEvent = z.infer<typeof leadCapturedEventSchema>;

/**
 * A lender panel version became the active one (or an earlier one again: a rollback). Every search
 * instance switches to it on this event; saved searches and DIPs learn from it that the market moved.
 */
export const panelActivatedEventSchema = z.object({
  version: z.string().min(1),
  previousVersion: z.string().nullable(),
  rollback: z.boolean(),
  activatedBy: z.string().min(1),
  activatedAt: z.string().datetime(),
  /** Products this version adds, removes or changes against the previous one. */
  changedProducts: z.array(
    z.object({
      lenderId: z.string(),
      productId: z.string(),
      change: z.enum(PANEL_CHANGES),
      /**
       * The versions (this one and any activated before) in which the product had exactly the terms it
       * has now; empty for a removed product. An offer priced under one of them is on today's terms
       * again (a rollback), so a DIP issued from it no longer differs from the product. Absent in
       * events written before it was carried: none known.
       */
      sameTermsIn: z.array(z.string().min(1)).default([]),
    }),
  ),
});
export type PanelActivatedEvent = z.infer<typeof panelActivatedEventSchema>;

/** A saved search's best offer, as the re-pricing records it (before and after a panel change). */
export const repricedOfferSchema = z.object({
  lenderName: z.string(),
  productName: z.string(),
  netLoan: z.number().finite().nonnegative(),
  /** Annual interest as a fraction. */
  interestRate: z.number().finite().nonnegative(),
});
export type RepricedOffer = z.infer<typeof repricedOfferSchema>;

/** What a panel change did to one saved search: 'New offers' when it gained one, else 'Terms changed'. */
export const REPRICING_MARKERS = ['New offers', 'Terms changed'] as const;

export const searchRepricingSchema = z.object({
  panelVersion: z.string().min(1),
  previousVersion: z.string().min(1),
  marker: z.enum(REPRICING_MARKERS),
  bestBefore: repricedOfferSchema.nullable(),
  bestAfter: repricedOfferSchema.nullable(),
  offersGained: z.number().int().nonnegative(),
  offersLost: z.number().int().nonnegative(),
  /** The best offer got better (a larger net loan, or the same at a lower rate): what an alert is sent for. */
  betterBest: z.boolean(),
  repricedAt: z.string().datetime(),
});
export type SearchRepricing = z.infer<typeof searchRepricingSchema>;

/** A saved search whose offers a new lender panel changed (published only for those that changed). */
export const searchRepricedEventSchema = searchRepricingSchema.extend({
  searchId: z.string().min(1),
  userId: z.string().min(1),
  loanType: z.enum(LOAN_TYPES),
  projectName: z.string().nullable(),
});
export type SearchRepricedEvent = z.infer<typeof searchRepricedEventSchema>;

const searchEvent = <S extends z.ZodType>(type: string, schema: S, subject: (data: z.output<S>) => string) =>
  defineEvent({ type, producer: 'search', schema, subject });

export const SEARCH_EVENTS = {
  completed: searchEvent(
    SEARCH_EVENT_TYPES.completed,
    searchCompletedEventSchema,
    (data) => data.searchRunId,
  ),
  saved: searchEvent(SEARCH_EVENT_TYPES.saved, searchSavedEventSchema, (data) => data.searchId),
  leadCaptured: searchEvent(SEARCH_EVENT_TYPES.leadCaptured, leadCapturedEventSchema, (data) => data.leadId),
  panelActivated: searchEvent(
    SEARCH_EVENT_TYPES.panelActivated,
    panelActivatedEventSchema,
    (data) => data.version,
  ),
  repriced: searchEvent(SEARCH_EVENT_TYPES.repriced, searchRepricedEventSchema, (data) => data.searchId),
} as const;
