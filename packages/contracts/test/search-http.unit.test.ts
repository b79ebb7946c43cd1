import {
  LEAD_MESSAGES,
  leadBodySchema,
  leadCapturedEventSchema,
  leadFormSchema,
  projectNameBodySchema,
  saveSearchBodySchema,
  searchCompletedEventSchema,
} from '../src/search';

const messagesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`));

const lead = { name: 'Jo Bloggs', email: 'jo@example.co.uk', propertiesOwned: '2-4', consent: true };

describe('lead form', () => {
  it('accepts a valid lead and defaults the contact preference to Email', () => {
    expect(leadFormSchema.parse(lead).contactPreference).toBe('Email');
  });

  it.each([
    ['name', ' J ', `name: ${LEAD_MESSAGES.name}`],
    ['email', 'jo@example', `email: ${LEAD_MESSAGES.email}`],
    ['email', 'jo @example.com', `email: ${LEAD_MESSAGES.email}`],
    ['propertiesOwned', '', `propertiesOwned: ${LEAD_MESSAGES.propertiesOwned}`],
    ['propertiesOwned', '99', `propertiesOwned: ${LEAD_MESSAGES.propertiesOwned}`],
    ['consent', false, `consent: ${LEAD_MESSAGES.consent}`],
  ])('rejects %s = %p with the lead-form message', (field, value, expected) => {
    expect(messagesOf(leadFormSchema.safeParse({ ...lead, [field]: value }))).toEqual([expected]);
  });

  it('accepts both propertiesOwned variants and leaves the phone unvalidated', () => {
    expect(
      leadFormSchema.safeParse({ ...lead, propertiesOwned: '6-10', phone: 'call after 6' }).success,
    ).toBe(true);
  });

  it('needs the search type and payload on POST /api/leads', () => {
    expect(
      messagesOf(leadBodySchema.safeParse({ ...lead, searchType: 'mortgage', searchPayload: [] })),
    ).toEqual([
      'searchType: Loan type must be one of development, bridging, commercial (received "mortgage")',
      'searchPayload: Search payload must be an object',
    ]);
  });
});

describe('saved search and project name bodies', () => {
  it('accepts a saved search and requires the user id', () => {
    const body = {
      userId: 'u1',
      loanType: 'bridging',
      searchData: { projectName: 'x' },
      apiResponse: { Results: [] },
    };
    expect(saveSearchBodySchema.safeParse(body).success).toBe(true);
    expect(messagesOf(saveSearchBodySchema.safeParse({ ...body, userId: '' }))).toEqual([
      'userId: User id is required',
    ]);
  });

  it('refuses a project name that is empty after trimming, in the dashboard rename wording', () => {
    expect(
      messagesOf(
        projectNameBodySchema.safeParse({ searchId: 's1', loanType: 'development', projectName: '  ' }),
      ),
    ).toEqual(['projectName: Project name cannot be empty']);
  });
});

describe('search event payloads', () => {
  it('accepts a search.completed with a null best rate and no user', () => {
    const event = {
      searchRunId: 'r1',
      loanType: 'commercial',
      resultCount: 0,
      declinedCount: 12,
      bestRate: null,
      durationMs: 1.2,
      panelVersion: 'v1',
    };
    expect(searchCompletedEventSchema.parse(event)).toEqual(event);
  });

  it('rejects a lead.captured without a search type', () => {
    expect(
      leadCapturedEventSchema.safeParse({
        leadId: 'l1',
        name: 'Jo',
        email: 'jo@x.io',
        propertiesOwned: '1',
        contactPreference: 'Email',
      }).success,
    ).toBe(false);
  });
});
