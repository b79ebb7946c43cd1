// Edit one product of the active version into a draft: pick the lender and the product, change its
// terms (rate card, max LTV or LTGDV by loan size, fees, loan and term limits, refused property
// classes, and the lender's regions), name the new version and submit. Only the terms changed are
// sent; the server checks the whole panel and answers each problem, an unknown product (404) or a
// version already stored (409).
import { Alert, Button, Checkbox, NumberField, Select, Spinner, TextAreaField, TextField } from '@lsp/ui';
import type { PanelProductView, PanelVersionDetail, PanelVersionSummary } from '@lsp/contracts';
import { PROPERTY_CLASSES, REGIONS, labelOf } from '@lsp/contracts';
import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { LoadError, failureText } from './ops-notices';
import { useEditProduct, usePanelVersion } from './panel-api';
import type { ProductEditForm } from './panel-model';
import { editChanges, problemText, problemsOf, productEditForm } from './panel-model';

type Lender = PanelVersionDetail['lenders'][number];

const LOAN_TYPE_LABEL: Record<PanelProductView['loanType'], string> = {
  bridging: 'Bridging',
  development: 'Development',
  commercial: 'Commercial',
};

function Fieldset({ legend, children, hint }: { legend: string; children: ReactNode; hint?: string }) {
  return (
    <fieldset className="ui-fieldset panel-fieldset">
      <legend className="ui-legend">{legend}</legend>
      {hint && <p className="ui-muted panel-fieldset__hint">{hint}</p>}
      <div className="panel-fieldset__grid">{children}</div>
    </fieldset>
  );
}

/** Ticks for a list of codes (property classes, regions), each labelled the way the site names it. */
function CodeChoices({
  codes,
  chosen,
  onChange,
}: {
  codes: readonly string[];
  chosen: string[];
  onChange: (next: string[]) => void;
}) {
  return (
    <>
      {codes.map((code) => (
        <Checkbox
          key={code}
          label={labelOf(code)}
          checked={chosen.includes(code)}
          onChange={(event) =>
            onChange(event.target.checked ? [...chosen, code] : chosen.filter((c) => c !== code))
          }
        />
      ))}
    </>
  );
}

/** The product's terms that are a single number (fees, loan and term limits), each in one NumberField. */
type NumberTerm = {
  [K in keyof ProductEditForm]: ProductEditForm[K] extends number | null ? K : never;
}[keyof ProductEditForm];

type NumberTermField = { term: NumberTerm; label: string; allowDecimal?: true; prefix?: string };

const FEE_TERMS: NumberTermField[] = [
  { term: 'arrangementFeePct', label: 'Arrangement fee (% of the loan)', allowDecimal: true },
  { term: 'minArrangementFee', label: 'Minimum arrangement fee', prefix: '£' },
  { term: 'exitFeePct', label: 'Exit fee (% of the loan)', allowDecimal: true },
  { term: 'otherCosts', label: 'Other costs', prefix: '£' },
];

const LOAN_AND_TERM_TERMS: NumberTermField[] = [
  { term: 'minLoan', label: 'Minimum loan', prefix: '£' },
  { term: 'maxLoan', label: 'Maximum loan', prefix: '£' },
  { term: 'minTermMonths', label: 'Minimum term (months)' },
  { term: 'maxTermMonths', label: 'Maximum term (months)' },
];

function NumberTerms({
  terms,
  form,
  set,
}: {
  terms: NumberTermField[];
  form: ProductEditForm;
  set: (patch: Partial<ProductEditForm>) => void;
}) {
  return (
    <>
      {terms.map(({ term, ...field }) => (
        <NumberField
          key={term}
          {...field}
          value={form[term]}
          onValueChange={(value) => set({ [term]: value })}
        />
      ))}
    </>
  );
}

type Outcome = { title: string; problems: string[]; retry: boolean } | null;

function ProductTermsForm({
  lender,
  product,
  onDraft,
}: {
  lender: Lender;
  product: PanelProductView;
  onDraft: (draft: PanelVersionSummary) => void;
}) {
  const [form, setForm] = useState<ProductEditForm>(() => productEditForm(product, lender.regions));
  const [version, setVersion] = useState('');
  const [description, setDescription] = useState('');
  const [versionError, setVersionError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const edit = useEditProduct();
  const set = (patch: Partial<ProductEditForm>) => setForm((now) => ({ ...now, ...patch }));
  const ratio = product.loanType === 'development' ? 'LTGDV' : 'LTV';
  const per = product.ratePer === 'month' ? 'per month' : 'per year';

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setOutcome(null);
    const name = version.trim();
    setVersionError(name ? undefined : 'Give the new version a name');
    const changes = editChanges(product, lender.regions, form);
    if (!changes.ok) {
      setOutcome({ title: 'Nothing was sent', problems: changes.problems, retry: false });
      return;
    }
    if (!name) return;
    edit.mutate(
      {
        version: name,
        description: description.trim() || undefined,
        lenderId: lender.id,
        productId: product.id,
        changes: changes.changes,
      },
      {
        onSuccess: (answer) => {
          if (answer.ok) {
            onDraft(answer.data);
            return;
          }
          const said = answer.data?.error ?? `The edit failed (the server answered ${answer.status})`;
          // A taken version is the name's problem: said beside the name.
          if (answer.status === 409) {
            setVersionError(said);
            return;
          }
          setOutcome({
            title: said,
            problems: problemsOf(answer.data).map(problemText),
            retry: answer.status >= 500,
          });
        },
      },
    );
  };

  const band = <T,>(list: T[], index: number, patch: Partial<T>) =>
    list.map((item, i) => (i === index ? { ...item, ...patch } : item));

  return (
    <form className="panel-form" onSubmit={submit} noValidate aria-label={`Terms of ${product.name}`}>
      <Fieldset
        legend={`Rate card (rates ${per})`}
        hint={`The first band whose ${ratio} covers the deal prices it.`}
      >
        {form.rateCard.map((b, i) => (
          <div key={i} className="panel-band">
            <NumberField
              label={`Band ${i + 1}: up to ${ratio} (%)`}
              allowDecimal
              value={b.maxRatioPct}
              onValueChange={(value) => set({ rateCard: band(form.rateCard, i, { maxRatioPct: value }) })}
            />
            <NumberField
              label={`Band ${i + 1}: rate (% ${per})`}
              allowDecimal
              value={b.ratePct}
              onValueChange={(value) => set({ rateCard: band(form.rateCard, i, { ratePct: value }) })}
            />
          </div>
        ))}
      </Fieldset>
      <Fieldset legend={`Max ${ratio} by loan size`}>
        {form.maxRatioBands.map((b, i) => (
          <div key={i} className="panel-band">
            <NumberField
              label={`Band ${i + 1}: loans up to`}
              prefix="£"
              value={b.upToLoan}
              onValueChange={(value) =>
                set({ maxRatioBands: band(form.maxRatioBands, i, { upToLoan: value }) })
              }
            />
            <NumberField
              label={`Band ${i + 1}: max ${ratio} (%)`}
              allowDecimal
              value={b.maxRatioPct}
              onValueChange={(value) =>
                set({ maxRatioBands: band(form.maxRatioBands, i, { maxRatioPct: value }) })
              }
            />
          </div>
        ))}
      </Fieldset>
      <Fieldset legend="Fees">
        <NumberTerms terms={FEE_TERMS} form={form} set={set} />
      </Fieldset>
      <Fieldset legend="Loan and term">
        <NumberTerms terms={LOAN_AND_TERM_TERMS} form={form} set={set} />
      </Fieldset>
      <Fieldset legend="Refused property classes">
        <CodeChoices
          codes={PROPERTY_CLASSES}
          chosen={form.refusedPropertyClasses}
          onChange={(next) => set({ refusedPropertyClasses: next })}
        />
      </Fieldset>
      <Fieldset legend={`Regions ${lender.name} lends in`} hint="These apply to every product of the lender.">
        <CodeChoices codes={REGIONS} chosen={form.regions} onChange={(next) => set({ regions: next })} />
      </Fieldset>
      <div className="panel-form__version">
        <TextField
          label="New version name"
          hint="A name no stored version has, e.g. 2026-12-01-rates"
          required
          maxLength={100}
          value={version}
          error={versionError}
          onChange={(event) => {
            setVersion(event.target.value);
            if (versionError) setVersionError(undefined);
          }}
        />
        <TextAreaField
          label="Description (optional)"
          rows={2}
          maxLength={500}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <div className="panel-form__actions">
        <Button type="submit" loading={edit.isPending} loadingText="Creating the draft...">
          Create draft
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setForm(productEditForm(product, lender.regions));
            setOutcome(null);
          }}
        >
          Reset terms
        </Button>
      </div>
      {outcome && (
        <Alert variant="danger" title={outcome.title} live>
          {outcome.problems.length > 0 && (
            <ul className="panel-problems" aria-label="Problems with the edit">
              {outcome.problems.map((problem, i) => (
                <li key={i}>{problem}</li>
              ))}
            </ul>
          )}
          {outcome.retry && (
            <Button size="sm" variant="secondary" onClick={() => submit()}>
              Retry
            </Button>
          )}
        </Alert>
      )}
      {edit.isError && (
        <Alert variant="danger" title="Could not create the draft" live className="ops-load-error">
          <p>{failureText(edit.error)}</p>
          <Button size="sm" variant="secondary" onClick={() => submit()}>
            Retry
          </Button>
        </Alert>
      )}
    </form>
  );
}

export function EditProductForm({
  active,
  onDraft,
}: {
  active: string;
  onDraft: (draft: PanelVersionSummary) => void;
}) {
  const detail = usePanelVersion(active);
  const [lenderId, setLenderId] = useState('');
  const [productId, setProductId] = useState('');
  if (detail.isPending) return <Spinner label="Loading the active version's products..." />;
  if (detail.isError)
    return (
      <LoadError
        title="Could not load the active version's products"
        error={detail.error}
        onRetry={() => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  const lender = detail.data.lenders.find((l) => l.id === lenderId);
  const product = lender?.products.find((p) => p.id === productId);
  return (
    <>
      <p className="ui-muted">
        A draft is made from the active version, <span className="ops-mono">{active}</span>, with this
        product&apos;s terms changed. Nothing changes for borrowers until it is activated.
      </p>
      <div className="ops-toolbar panel-pick">
        <Select
          label="Lender"
          placeholder="Choose a lender"
          options={detail.data.lenders.map((l) => ({ value: l.id, label: l.name }))}
          value={lenderId}
          onChange={(event) => {
            setLenderId(event.target.value);
            setProductId('');
          }}
        />
        <Select
          label="Product"
          placeholder={lender ? 'Choose a product' : 'Choose a lender first'}
          disabled={!lender}
          options={(lender?.products ?? []).map((p) => ({
            value: p.id,
            label: `${p.name} (${LOAN_TYPE_LABEL[p.loanType]})`,
          }))}
          value={productId}
          onChange={(event) => setProductId(event.target.value)}
        />
      </div>
      {lender && product && (
        <ProductTermsForm
          key={`${lender.id}/${product.id}`}
          lender={lender}
          product={product}
          onDraft={onDraft}
        />
      )}
    </>
  );
}
