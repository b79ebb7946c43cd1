import { PROPERTIES_OWNED_GATE, type PendingLoanResults, STORAGE_KEYS } from '@lsp/contracts';
import { Button, Card, RadioCards, RequireSession, TextField, useToast } from '@lsp/ui';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { saveLeadInfo } from '../shared/search-api';
import { loanResultsFromHistory } from '../results/loan-results-history';
import { readFreshPendingResults, storePendingResults } from '../shared/pending-results';
import { browserStorage, readJson } from '../shared/storage-keys';

interface StoredUser {
  id?: string;
  userId?: string;
  name?: string;
  email?: string;
  phone?: string;
}

const GATE_LABELS: Record<(typeof PROPERTIES_OWNED_GATE)[number], string> = {
  '0': 'None yet',
  '1-2': '1-2',
  '3-5': '3-5',
  '6-10': '6-10',
  '10+': '10+',
};

function YesNo({
  name,
  legend,
  value,
  onChange,
}: {
  name: string;
  legend: string;
  value: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <RadioCards
      name={name}
      legend={legend}
      compact
      options={[
        { value: 'yes', title: 'Yes' },
        { value: 'no', title: 'No' },
      ]}
      value={value ? 'yes' : 'no'}
      onChange={(choice) => onChange(choice === 'yes')}
    />
  );
}

function ResultsGate() {
  const navigate = useNavigate();
  const location = useLocation();
  const { toast } = useToast();
  // The results come with the navigation from the results list (Continue to Apply & Share), or are
  // the ones held in browser storage.
  const [context] = useState(() => {
    const storage = browserStorage();
    const carried = loanResultsFromHistory(location.state);
    return {
      user: readJson<StoredUser>(storage, STORAGE_KEYS.currentUser),
      pending: carried ?? readFreshPendingResults(storage, Date.now()),
      carried: carried !== null,
    };
  });
  const [propertiesOwned, setPropertiesOwned] = useState<(typeof PROPERTIES_OWNED_GATE)[number] | null>(null);
  const [readiness, setReadiness] = useState({
    hasViewedProperty: context.pending?.formData.hasViewedProperty === true,
    ownsProperty: context.pending?.formData.ownsProperty === true,
    agreedPurchasePrice: context.pending?.formData.agreedPurchasePrice === true,
  });
  const [saving, setSaving] = useState(false);

  const missing = !context.user || !context.pending;
  useEffect(() => {
    if (!missing) return;
    toast({
      title: 'No search results found',
      description: 'Please complete a loan search first.',
      variant: 'info',
    });
    navigate('/', { replace: true });
  }, [missing, navigate, toast]);
  if (missing) return null;
  const pending = context.pending as PendingLoanResults;
  // The session record carries no phone; the lead given with the search may.
  const user: StoredUser = {
    ...(context.user as StoredUser),
    phone: (context.user as StoredUser).phone ?? pending.userData?.phone,
  };

  const submit = async () => {
    if (!propertiesOwned) return;
    setSaving(true);
    try {
      const ok = await saveLeadInfo({
        userId: String(user.id ?? user.userId ?? ''),
        leadInfo: {
          fullName: user.name,
          email: user.email,
          phone: user.phone,
          propertiesOwned,
          ...readiness,
        },
        searchData: { ...pending.formData, loanType: pending.loanType },
      });
      if (!ok) throw new Error('Lead info was not saved');
      const storage = browserStorage();
      // /loan-results reads the held results and the lead flag from storage, and removes both.
      if (context.carried) {
        const { timestamp: _shownAt, ...held } = pending;
        storePendingResults(storage, held, Date.now());
      }
      storage.setItem(STORAGE_KEYS.leadInfoCaptured, 'true');
      navigate(`/loan-results?type=${pending.loanType}`);
    } catch (error) {
      console.error('Failed to save lead info', error);
      toast({ title: 'Error saving information', description: 'Please try again.', variant: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="ui-container sr-page">
      <Card
        title="Almost there: tell us about your investing"
        subtitle={`We found ${pending.results.length} lender option(s). A few details help lenders give you their best terms.`}
        raised
      >
        <form
          className="ui-stack"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className="sr-form-grid">
            <TextField label="Name" value={user.name ?? ''} readOnly />
            <TextField label="Email" value={user.email ?? ''} readOnly />
            <TextField label="Phone" value={user.phone ?? ''} readOnly placeholder="Not given" />
          </div>
          <RadioCards
            name="propertiesOwned"
            legend={
              <>
                How many properties do you own?
                <span className="ui-required" aria-hidden="true">
                  *
                </span>
              </>
            }
            compact
            options={PROPERTIES_OWNED_GATE.map((value) => ({ value, title: GATE_LABELS[value] }))}
            value={propertiesOwned}
            onChange={(value) =>
              setPropertiesOwned(PROPERTIES_OWNED_GATE.find((option) => option === value) ?? null)
            }
          />
          <YesNo
            name="hasViewedProperty"
            legend="Have you viewed the property?"
            value={readiness.hasViewedProperty}
            onChange={(value) => setReadiness((r) => ({ ...r, hasViewedProperty: value }))}
          />
          <YesNo
            name="ownsProperty"
            legend="Do you already own the property?"
            value={readiness.ownsProperty}
            onChange={(value) => setReadiness((r) => ({ ...r, ownsProperty: value }))}
          />
          <YesNo
            name="agreedPurchasePrice"
            legend="Have you agreed a purchase price?"
            value={readiness.agreedPurchasePrice}
            onChange={(value) => setReadiness((r) => ({ ...r, agreedPurchasePrice: value }))}
          />
          <Button
            type="submit"
            variant="brand"
            size="lg"
            disabled={!propertiesOwned}
            loading={saving}
            loadingText="Saving..."
          >
            Continue
          </Button>
        </form>
      </Card>
    </div>
  );
}

export function ResultsGatePage() {
  return (
    <RequireSession>
      <ResultsGate />
    </RequireSession>
  );
}
