import { z } from 'zod';
import { CONTACT_PREFERENCES, PROPERTIES_OWNED, loanTypeSchema } from '../common/enums';
import { LEAD_NAME_MIN_LENGTH } from '../common/constants';
import { jsonObject, jsonObjectOrArray } from '../common/json';
import { emailText } from '../common/text';
import { loanOfferSchema } from './result';

export const LEAD_MESSAGES = {
  name: 'Please enter your full name',
  email: 'Please enter a valid email address',
  propertiesOwned: 'Please select number of properties',
  consent: 'You must agree to be contacted',
} as const;

const searchPayloadObject = jsonObject('Search payload', 'Search payload must be an object');

/** An id a body names (`User`, `Search`): trimmed, required, at most 100 characters. */
const requiredId = (name: string) =>
  z
    .string({ error: `${name} id is required` })
    .trim()
    .min(1, `${name} id is required`)
    .max(100, `${name} id is too long`);

/** The lead dialog's own fields, used by the form before the search runs. */
export const leadFormSchema = z.object({
  name: z
    .string({ error: LEAD_MESSAGES.name })
    .trim()
    .min(LEAD_NAME_MIN_LENGTH, LEAD_MESSAGES.name)
    .max(200, 'Name must be at most 200 characters'),
  email: emailText({ invalid: LEAD_MESSAGES.email }),
  // Not validated by the product beyond being text; bounded so a lead record stays small.
  phone: z
    .string({ error: 'Phone must be text' })
    .max(40, 'Phone must be at most 40 characters')
    .trim()
    .optional(),
  propertiesOwned: z.enum(PROPERTIES_OWNED, { error: LEAD_MESSAGES.propertiesOwned }),
  contactPreference: z
    .enum(CONTACT_PREFERENCES, {
      error: `Contact preference must be one of ${CONTACT_PREFERENCES.join(', ')}`,
    })
    .default('Email'),
  consent: z.literal(true, { error: LEAD_MESSAGES.consent }),
});
export type LeadForm = z.output<typeof leadFormSchema>;
export type LeadFormInput = z.input<typeof leadFormSchema>;

/** POST /api/leads: the lead plus the search it came with. */
export const leadBodySchema = leadFormSchema.extend({
  searchType: loanTypeSchema,
  searchPayload: searchPayloadObject,
});
export type LeadBody = z.output<typeof leadBodySchema>;

/** POST /api/search: save a completed search for a user. */
export const saveSearchBodySchema = z.object({
  userId: requiredId('User'),
  loanType: loanTypeSchema,
  searchData: searchPayloadObject,
  apiResponse: jsonObjectOrArray('apiResponse').nullish(),
});
export type SaveSearchBody = z.output<typeof saveSearchBodySchema>;

/** PUT /api/search/project-name. */
export const projectNameBodySchema = z.object({
  searchId: requiredId('Search'),
  loanType: loanTypeSchema,
  // The dashboard's rename rule (companion spec): empty after trimming is refused with this message.
  projectName: z
    .string({ error: 'Project name cannot be empty' })
    .trim()
    .min(1, 'Project name cannot be empty')
    .max(200, 'Project name must be at most 200 characters'),
});
export type ProjectNameBody = z.output<typeof projectNameBodySchema>;

/** A bridging search's answer: the purchase costs it received and counted, the project's cost, the bridge type sized. */
export const searchDebugInfoSchema = z.object({
  purchaseCostsReceived: z.number().nullable(),
  purchaseCostsSentToAPI: z.number().nullable(),
  totalProjectCost: z.number().nullable(),
  endpointUsed: z.string(),
});

/** The answer of POST /api/development|bridging|commercial. */
export const searchResponseSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  error: z.string().optional(),
  data: z.object({ Results: z.array(loanOfferSchema) }).optional(),
  debugInfo: searchDebugInfoSchema.optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
