import { zodResolver } from '@hookform/resolvers/zod';
import {
  developmentFormDefaults,
  developmentSearchSchema,
  type DevelopmentSearch,
  type DevelopmentSearchInput,
} from '@lsp/contracts';
import { TextField } from '@lsp/ui';
import { useEffect, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { ChoiceInput, FormSection, NumberInput, SelectInput, YesNoInput } from './form-fields';
import { derivedBuildCosts } from './development-costs';
import { propertyClassOptions, purchaseOrRefinanceOptions } from './options';
import { SearchFormFrame, type SearchFormProps } from './search-form-frame';
import {
  LoanRequirementsSection,
  ProjectNameField,
  ProjectReadinessSection,
  PropertyLocationInput,
} from './shared-sections';
import { useSearchForm } from './use-search-form';

const defaults = { ...developmentFormDefaults } as unknown as DevelopmentSearchInput;

export function DevelopmentForm(props: SearchFormProps) {
  const { form, shared, maxLoanRequired, frame } = useSearchForm<DevelopmentSearchInput, DevelopmentSearch>(
    zodResolver(developmentSearchSchema),
    defaults,
    props,
  );
  const { control, register, setValue, formState } = form;
  const [buildCost, contingencyIncluded, contingencyPercentage] = useWatch({
    control,
    name: ['buildCost', 'contingencyIncluded', 'contingencyPercentage'],
  });

  // Changing the build cost (or how contingency is counted) recomputes the two derived figures; the
  // first render keeps whatever a reloaded search carried.
  const previous = useRef({ buildCost, contingencyIncluded, contingencyPercentage });
  useEffect(() => {
    const before = previous.current;
    previous.current = { buildCost, contingencyIncluded, contingencyPercentage };
    if (
      before.buildCost === buildCost &&
      before.contingencyIncluded === contingencyIncluded &&
      before.contingencyPercentage === contingencyPercentage
    )
      return;
    const derived = derivedBuildCosts({
      buildCost: buildCost as number | undefined,
      contingencyIncluded: contingencyIncluded as boolean,
      contingencyPercentage: contingencyPercentage as number | undefined,
    });
    setValue('totalBuildCost', derived.totalBuildCost);
    if (before.buildCost !== buildCost) setValue('profCostsAndFees', derived.profCostsAndFees);
  }, [buildCost, contingencyIncluded, contingencyPercentage, setValue]);

  return (
    <SearchFormFrame
      title="Development Finance Search"
      description="Tell us about the site, the build and the loan you need."
      {...frame}
    >
      <FormSection title="Project Information">
        <ProjectNameField field={register('projectName')} error={formState.errors.projectName?.message} />
        <TextField
          label="Property address"
          hint="Optional"
          {...register('propertyAddress')}
          autoComplete="street-address"
        />
        <PropertyLocationInput control={shared} placeholder="Select a region" />
        <SelectInput
          control={control}
          name="propertyClass"
          label="End use (property class)"
          required
          options={propertyClassOptions}
          placeholder="Select an end use"
        />
      </FormSection>

      <FormSection title="Purchase Details">
        <ChoiceInput
          control={control}
          name="purchaseOrRefinance"
          label="Purchase or refinance"
          options={purchaseOrRefinanceOptions}
        />
        <NumberInput control={control} name="purchasePrice" label="Purchase price" prefix="£" required />
        <NumberInput
          control={control}
          name="purchaseCosts"
          label="Purchase costs"
          prefix="£"
          hint="Optional: stamp duty, legal and survey fees"
        />
      </FormSection>

      <FormSection title="Build Details">
        <NumberInput control={control} name="buildCost" label="Build cost" prefix="£" required />
        <YesNoInput
          control={control}
          name="contingencyIncluded"
          label="Is contingency already included in the build cost?"
        />
        <NumberInput
          control={control}
          name="contingencyPercentage"
          label="Contingency (%)"
          allowDecimal
          hint="0 to 100; 5% if left empty"
        />
        <NumberInput
          control={control}
          name="totalBuildCost"
          label="Total build cost"
          prefix="£"
          hint="Build cost plus contingency, worked out for you; change it if yours differs and the search uses your figure"
        />
        <NumberInput
          control={control}
          name="profCostsAndFees"
          label="Professional costs and fees"
          prefix="£"
          allowDecimal
          hint="10% of the build cost unless you enter your own; the search uses the figure shown"
        />
        <NumberInput
          control={control}
          name="additionalOngoingCosts"
          label="Additional ongoing costs"
          prefix="£"
        />
        <NumberInput control={control} name="gdv" label="Gross development value (GDV)" prefix="£" required />
        <NumberInput control={control} name="buildTerm" label="Build term (months)" required />
        <YesNoInput control={control} name="giaKnown" label="Do you know the gross internal area (GIA)?" />
      </FormSection>

      <LoanRequirementsSection control={shared} maxLoanRequired={maxLoanRequired}>
        <NumberInput control={control} name="loanTerm" label="Loan term (months)" required />
      </LoanRequirementsSection>

      <ProjectReadinessSection control={shared} />
    </SearchFormFrame>
  );
}
