import { zodResolver } from '@hookform/resolvers/zod';
import {
  commercialFormDefaults,
  commercialSearchSchema,
  type CommercialSearch,
  type CommercialSearchInput,
} from '@lsp/contracts';
import { TextField } from '@lsp/ui';
import { useWatch } from 'react-hook-form';
import { ChoiceInput, FormSection, NumberInput, SelectInput, YesNoInput } from './form-fields';
import {
  borrowingEntityOptions,
  completionOptions,
  fixedTermOptions,
  interestTypeOptions,
  leaseOptions,
  ownOrPurchaseOptions,
  propertyClassOptions,
  repaymentOptions,
} from './options';
import { SearchFormFrame, type SearchFormProps } from './search-form-frame';
import {
  LoanRequirementsSection,
  ProjectNameField,
  ProjectReadinessSection,
  PropertyLocationInput,
} from './shared-sections';
import { useSearchForm } from './use-search-form';

const defaults = {
  ...commercialFormDefaults,
  hasViewedProperty: false,
  ownsProperty: false,
  agreedPurchasePrice: false,
} as unknown as CommercialSearchInput;

export function CommercialForm(props: SearchFormProps) {
  const { form, shared, maxLoanRequired, frame } = useSearchForm<CommercialSearchInput, CommercialSearch>(
    zodResolver(commercialSearchSchema),
    defaults,
    props,
  );
  const { control, register, formState } = form;
  const [isOwnerOccupied, ownOrPurchase, mortgageInterestType] = useWatch({
    control,
    name: ['isOwnerOccupied', 'ownOrPurchase', 'mortgageInterestType'],
  });

  return (
    <SearchFormFrame
      title="Commercial Finance Search"
      description="A commercial mortgage to purchase or refinance an owned or investment property."
      {...frame}
    >
      <FormSection title="Project Information">
        <ProjectNameField field={register('projectName')} error={formState.errors.projectName?.message} />
        <PropertyLocationInput control={shared} />
        <SelectInput
          control={control}
          name="currentPropertyType"
          label="Property type"
          required
          options={propertyClassOptions}
        />
        <ChoiceInput
          control={control}
          name="borrowingEntityType"
          label="Borrowing as"
          options={borrowingEntityOptions}
        />
      </FormSection>

      <FormSection title="Property Use">
        <YesNoInput control={control} name="isOwnerOccupied" label="Is the property owner-occupied?" />
        {!isOwnerOccupied && (
          <NumberInput
            control={control}
            name="grossMonthlyRentalIncome"
            label="Gross monthly rental income"
            prefix="£"
            required
          />
        )}
        <SelectInput
          control={control}
          name="timeLeftOnLease"
          label="Time left on the lease"
          options={leaseOptions}
        />
      </FormSection>

      <FormSection title="Property Details">
        <ChoiceInput
          control={control}
          name="ownOrPurchase"
          label="Do you own it or are you purchasing?"
          options={ownOrPurchaseOptions}
        />
        {ownOrPurchase === 'Own' && (
          <>
            <NumberInput control={control} name="currentValue" label="Current value" prefix="£" required />
            <TextField
              label="Original purchase date"
              type="date"
              hint="Optional"
              {...register('originalPurchaseDate')}
            />
          </>
        )}
        {ownOrPurchase === 'Purchasing' && (
          <>
            <NumberInput control={control} name="purchasePrice" label="Purchase price" prefix="£" required />
            <NumberInput
              control={control}
              name="purchaseCosts"
              label="Purchase costs"
              prefix="£"
              required
              hint="Stamp duty, legal and survey fees"
            />
          </>
        )}
      </FormSection>

      <LoanRequirementsSection control={shared} maxLoanRequired={maxLoanRequired}>
        <NumberInput control={control} name="mortgageTerm" label="Mortgage term (years)" required />
        <ChoiceInput
          control={control}
          name="mortgageInterestType"
          label="Interest type"
          options={interestTypeOptions}
        />
        {mortgageInterestType === 'Fixed' && (
          <SelectInput
            control={control}
            name="fixedRateTerm"
            label="Fixed rate term"
            required
            options={fixedTermOptions}
            placeholder="Select a term"
          />
        )}
        <SelectInput
          control={control}
          name="loanRepaymentType"
          label="Repayment type"
          options={repaymentOptions}
        />
        <SelectInput
          control={control}
          name="loanCompletionType"
          label="When do you need the loan?"
          options={completionOptions}
        />
      </LoanRequirementsSection>

      <ProjectReadinessSection control={shared} />
    </SearchFormFrame>
  );
}
