import { zodResolver } from '@hookform/resolvers/zod';
import { developmentFormDefaults, developmentSearchSchema, type DevelopmentSearch, type DevelopmentSearchInput } from '@lsp/contracts';
import { TextField } from '@lsp/ui';
import { useEffect, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { ChoiceInput, FormSection, NumberInput, SelectInput, YesNoInput } from '../components/form-fields';
import { derivedBuildCosts } from '../lib/development-costs';
import { propertyClassOptions, purchaseOrRefinanceOptions, regionOptions } from './options';
import { mergeInitial, SearchFormFrame, type SearchFormProps } from './search-form-frame';

const defaults = { ...developmentFormDefaults } as unknown as DevelopmentSearchInput;

export function DevelopmentForm({ initialValues, onSearch, busy, renderRecent }: SearchFormProps) {
  const form = useForm<DevelopmentSearchInput, unknown, DevelopmentSearch>({
    resolver: zodResolver(developmentSearchSchema),
    defaultValues: mergeInitial(defaults as Record<string, unknown>, initialValues) as DevelopmentSearchInput,
    shouldUnregister: true,
  });
  const { control, register, setValue, formState } = form;
  const [buildCost, contingencyIncluded, contingencyPercentage, maxLoanRequired] = useWatch({
    control,
    name: ['buildCost', 'contingencyIncluded', 'contingencyPercentage', 'maxLoanRequired'],
  });

  // Changing the build cost (or how contingency is counted) recomputes the two derived figures; the
  // first render keeps whatever a reloaded search carried.
  const previous = useRef({ buildCost, contingencyIncluded, contingencyPercentage });
  useEffect(() => {
    const before = previous.current;
    previous.current = { buildCost, contingencyIncluded, contingencyPercentage };
    if (before.buildCost === buildCost && before.contingencyIncluded === contingencyIncluded && before.contingencyPercentage === contingencyPercentage) return;
    const derived = derivedBuildCosts({ buildCost: buildCost as number | undefined, contingencyIncluded: contingencyIncluded as boolean, contingencyPercentage: contingencyPercentage as number | undefined });
    setValue('totalBuildCost', derived.totalBuildCost);
    if (before.buildCost !== buildCost) setValue('profCostsAndFees', derived.profCostsAndFees);
  }, [buildCost, contingencyIncluded, contingencyPercentage, setValue]);

  // Max loan Yes clears the net loan and hides it.
  useEffect(() => {
    if (maxLoanRequired) setValue('netLoanRequired', undefined);
  }, [maxLoanRequired, setValue]);

  const load = (data: Record<string, unknown>) => form.reset(mergeInitial(defaults as Record<string, unknown>, data) as DevelopmentSearchInput);

  return (
    <SearchFormFrame
      title="Development Finance Search"
      description="Tell us about the site, the build and the loan you need."
      recent={renderRecent(load)}
      busy={busy}
      onSubmit={form.handleSubmit((values) => onSearch(values as unknown as Record<string, unknown>))}
    >
      <FormSection title="Project Information">
        <TextField label="Project name" required {...register('projectName')} error={formState.errors.projectName?.message} autoComplete="off" />
        <TextField label="Property address" hint="Optional" {...register('propertyAddress')} autoComplete="street-address" />
        <SelectInput control={control} name="propertyLocation" label="Property location" required options={regionOptions} placeholder="Select a region" />
        <SelectInput control={control} name="propertyClass" label="End use (property class)" required options={propertyClassOptions} placeholder="Select an end use" />
      </FormSection>

      <FormSection title="Purchase Details">
        <ChoiceInput control={control} name="purchaseOrRefinance" label="Purchase or refinance" options={purchaseOrRefinanceOptions} />
        <NumberInput control={control} name="purchasePrice" label="Purchase price" prefix="£" required />
        <NumberInput control={control} name="purchaseCosts" label="Purchase costs" prefix="£" hint="Optional: stamp duty, legal and survey fees" />
      </FormSection>

      <FormSection title="Build Details">
        <NumberInput control={control} name="buildCost" label="Build cost" prefix="£" required />
        <YesNoInput control={control} name="contingencyIncluded" label="Is contingency already included in the build cost?" />
        <NumberInput control={control} name="contingencyPercentage" label="Contingency (%)" allowDecimal hint="0 to 100; 5% if left empty" />
        <NumberInput control={control} name="totalBuildCost" label="Total build cost" prefix="£" hint="Build cost plus contingency (worked out for you)" />
        <NumberInput control={control} name="profCostsAndFees" label="Professional costs and fees" prefix="£" allowDecimal hint="Assumed at 10% of the build cost" />
        <NumberInput control={control} name="additionalOngoingCosts" label="Additional ongoing costs" prefix="£" />
        <NumberInput control={control} name="gdv" label="Gross development value (GDV)" prefix="£" required />
        <NumberInput control={control} name="buildTerm" label="Build term (months)" required />
        <YesNoInput control={control} name="giaKnown" label="Do you know the gross internal area (GIA)?" />
      </FormSection>

      <FormSection title="Loan Requirements">
        <NumberInput control={control} name="loanTerm" label="Loan term (months)" required />
        <YesNoInput control={control} name="maxLoanRequired" label="Do you want the maximum loan available?" />
        {!maxLoanRequired && <NumberInput control={control} name="netLoanRequired" label="Net loan required" prefix="£" required />}
      </FormSection>

      <FormSection title="Project Readiness">
        <YesNoInput control={control} name="hasViewedProperty" label="Have you viewed the property?" />
        <YesNoInput control={control} name="ownsProperty" label="Do you already own the property?" />
        <YesNoInput control={control} name="agreedPurchasePrice" label="Have you agreed a purchase price?" />
      </FormSection>
    </SearchFormFrame>
  );
}
