// Edit one product of the active version into a draft: pick the lender and the product, change its
// terms (rate card, max LTV or LTGDV by loan size, fees, loan and term limits, refused property
// classes, and the lender's regions), name the new version and submit. Only the terms changed are
// sent; the server checks the whole panel and answers each problem, an unknown product (404) or a
// version already stored (409).
import { Alert, Button, Checkbox, NumberField, Select, Spinner, TextAreaField, TextField } from '@lsp/ui';
import type {
  PanelProductEditForm,
  PanelProductView,
  PanelVersionDetail,
  PanelVersionSummary,
} from '@lsp/contracts';
import { PROPERTY_CLASSES, REGIONS, labelOf } from '@lsp/contracts';
import { useMemo, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Control, FieldPathByValue } from 'react-hook-form';
import { LoadError, failureText } from './ops-notices';
import { useEditProduct, usePanelVersion } from './panel-api';
import type { ProductEdit, ProductEditForm } from './panel-model';
import {
  editProblems,
  problemText,
  problemsOf,
  productEditDefaults,
  productEditForm,
  productEditResolver,
} from './panel-model';

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

type EditControl = Control<PanelProductEditForm, unknown, ProductEdit>;

/** Ticks for a list of codes (property classes, regions), each labelled the way the site names it. */
function CodeChoices<Code extends string>({
  codes,
  chosen,
  onChange,
}: {
  codes: readonly Code[];
  chosen: Code[];
  onChange: (next: Code[]) => void;
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

/** A term that is one number: its field, empty (null) until typed. */
function TermField({
  control,
  name,
  ...field
}: {
  control: EditControl;
  name: FieldPathByValue<PanelProductEditForm, number | null>;
  label: string;
  allowDecimal?: true;
  prefix?: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { value, onChange } }) => (
        <NumberField {...field} value={value} onValueChange={onChange} />
      )}
    />
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

function NumberTerms({ terms, control }: { terms: NumberTermField[]; control: EditControl }) {
  return (
    <>
      {terms.map(({ term, ...field }) => (
        <TermField key={term} control={control} name={`terms.${term}`} {...field} />
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
  const resolver = useMemo(() => productEditResolver(product, lender.regions), [product, lender.regions]);
  const {
    control,
    register,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<PanelProductEditForm, unknown, ProductEdit>({
    resolver,
    defaultValues: productEditDefaults(product, lender.regions),
    // The problems stay as found until the next Create draft (the name's until it is changed); the
    // focus stays where it is.
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  // What the server refused the last edit with; the form's own problems are in `errors`.
  const [refusal, setRefusal] = useState<Outcome>(null);
  const edit = useEditProduct();
  const ratio = product.loanType === 'development' ? 'LTGDV' : 'LTV';
  const per = product.ratePer === 'month' ? 'per month' : 'per year';
  const problems = editProblems(product, errors);
  const outcome: Outcome = problems.length ? { title: 'Nothing was sent', problems, retry: false } : refusal;

  const send = (draft: ProductEdit) =>
    edit.mutate(
      {
        version: draft.version,
        description: draft.description,
        lenderId: lender.id,
        productId: product.id,
        changes: draft.changes,
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
            setError('version', { type: 'server', message: said });
            return;
          }
          setRefusal({
            title: said,
            problems: problemsOf(answer.data).map(problemText),
            retry: answer.status >= 500,
          });
        },
      },
    );

  const submit = (event?: FormEvent) => {
    setRefusal(null);
    void handleSubmit(send)(event);
  };

  const resetTerms = () => {
    setValue('terms', productEditForm(product, lender.regions));
    clearErrors('terms');
    setRefusal(null);
  };

  return (
    <form className="panel-form" onSubmit={submit} noValidate aria-label={`Terms of ${product.name}`}>
      <Fieldset
        legend={`Rate card (rates ${per})`}
        hint={`The first band whose ${ratio} covers the deal prices it.`}
      >
        {product.rateCard.map((_, i) => (
          <div key={i} className="panel-band">
            <TermField
              control={control}
              name={`terms.rateCard.${i}.maxRatioPct`}
              label={`Band ${i + 1}: up to ${ratio} (%)`}
              allowDecimal
            />
            <TermField
              control={control}
              name={`terms.rateCard.${i}.ratePct`}
              label={`Band ${i + 1}: rate (% ${per})`}
              allowDecimal
            />
          </div>
        ))}
      </Fieldset>
      <Fieldset legend={`Max ${ratio} by loan size`}>
        {product.maxRatioBands.map((_, i) => (
          <div key={i} className="panel-band">
            <TermField
              control={control}
              name={`terms.maxRatioBands.${i}.upToLoan`}
              label={`Band ${i + 1}: loans up to`}
              prefix="£"
            />
            <TermField
              control={control}
              name={`terms.maxRatioBands.${i}.maxRatioPct`}
              label={`Band ${i + 1}: max ${ratio} (%)`}
              allowDecimal
            />
          </div>
        ))}
      </Fieldset>
      <Fieldset legend="Fees">
        <NumberTerms terms={FEE_TERMS} control={control} />
      </Fieldset>
      <Fieldset legend="Loan and term">
        <NumberTerms terms={LOAN_AND_TERM_TERMS} control={control} />
      </Fieldset>
      <Fieldset legend="Refused property classes">
        <Controller
          control={control}
          name="terms.refusedPropertyClasses"
          render={({ field }) => (
            <CodeChoices codes={PROPERTY_CLASSES} chosen={field.value} onChange={field.onChange} />
          )}
        />
      </Fieldset>
      <Fieldset legend={`Regions ${lender.name} lends in`} hint="These apply to every product of the lender.">
        <Controller
          control={control}
          name="terms.regions"
          render={({ field }) => (
            <CodeChoices codes={REGIONS} chosen={field.value} onChange={field.onChange} />
          )}
        />
      </Fieldset>
      <div className="panel-form__version">
        <TextField
          label="New version name"
          hint="A name no stored version has, e.g. 2026-12-01-rates"
          required
          maxLength={100}
          error={errors.version?.message}
          {...register('version', { onChange: () => clearErrors('version') })}
        />
        <TextAreaField label="Description (optional)" rows={2} maxLength={500} {...register('description')} />
      </div>
      <div className="panel-form__actions">
        <Button type="submit" loading={edit.isPending} loadingText="Creating the draft...">
          Create draft
        </Button>
        <Button type="button" variant="ghost" onClick={resetTerms}>
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
