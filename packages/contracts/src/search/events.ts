import { z } from 'zod';
import { CONTACT_PREFERENCES, LOAN_TYPES, PROPERTIES_OWNED } from '../common/enums';

export const SEARCH_EVENT_TYPES = {
  completed: 'search.completed',
  saved: 'search.saved',
  leadCaptured: 'lead.captured',
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
