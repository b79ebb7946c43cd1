import { zodResolver } from '@hookform/resolvers/zod';
import {
  bridgingFormDefaults,
  bridgingSearchSchema,
  type BridgingSearch,
  type BridgingSearchInput,
} from '@lsp/contracts';
import { RadioCards, TextField } from '@lsp/ui';
import { Controller, useWatch } from 'react-hook-form';
import { ChoiceInput, FormSection, NumberInput, SelectInput } from './form-fields';
import {
  bridgingTypeOptions,
  landOrPropertyOptions,
  ownOrPurchaseOptions,
  planningOptions,
  propertyClassOptions,
  refurbishmentOptions,
} from './options';
import { SearchFormFrame, type SearchFormProps } from './search-form-frame';
import {
  LoanRequirementsSection,
  ProjectNameField,
  ProjectReadinessSection,
  PropertyLocationInput,
} from './shared-sections';
import { useSearchForm } from './use-search-form';

const defaults = { ...bridgingFormDefaults } as unknown as BridgingSearchInput;

export function BridgingForm(props: SearchFormProps) {
  const { form, shared, maxLoanRequired, frame } = useSearchForm<BridgingSearchInput, BridgingSearch>(
    zodResolver(bridgingSearchSchema),
    defaults,
    props,
  );
  const { control, register, formState } = form;
  const [bridgingType, ownOrPurchase, landOrProperty] = useWatch({
    control,
    name: ['bridgingType', 'ownOrPurchase', 'landOrProperty'],
  });

  const developerExit = bridgingType === 'bridgingDeveloperExit';
  const refurbishment = bridgingType === 'bridgingRefurbishment';
  const preconstruction = bridgingType === 'bridgingPreconstruction';
  // The same two questions open whichever details section the bridge type shows.
  const propertyLocationAndClass = (
    <>
      <PropertyLocationInput control={shared} />
      <SelectInput
        control={control}
        name="propertyClass"
        label="Property class"
        options={propertyClassOptions}
      />
    </>
  );

  return (
    <SearchFormFrame
      title="Bridging Finance Search"
      description="Short-term finance for buying, refinancing, refurbishing or exiting a development."
      {...frame}
    >
      <div className="sr-form-section">
        <ProjectNameField field={register('projectName')} error={formState.errors.projectName?.message} />
        <Controller
          control={control}
          name="bridgingType"
          render={({ field }) => (
            <RadioCards
              name={field.name}
              legend="What do you need the bridge for?"
              options={bridgingTypeOptions}
              value={field.value ?? null}
              onChange={field.onChange}
              className="sr-use-cases"
            />
          )}
        />
      </div>

      {!developerExit && (
        <FormSection title="Property Details">
          {propertyLocationAndClass}
          <ChoiceInput
            control={control}
            name="landOrProperty"
            label="Land or property?"
            options={landOrPropertyOptions}
          />
          {landOrProperty === 'Land' && (
            <SelectInput
              control={control}
              name="planningPermissionType"
              label="Planning permission"
              options={planningOptions}
            />
          )}
          <ChoiceInput
            control={control}
            name="ownOrPurchase"
            label="Do you own it or are you purchasing?"
            options={ownOrPurchaseOptions}
          />
          {ownOrPurchase === 'Own' ? (
            <>
              <NumberInput control={control} name="currentValue" label="Current value" prefix="£" />
              <TextField
                label="Original purchase date"
                type="date"
                hint="Optional"
                {...register('originalPurchaseDate')}
              />
            </>
          ) : (
            <>
              <NumberInput control={control} name="purchasePrice" label="Purchase price" prefix="£" />
              <NumberInput
                control={control}
                name="purchaseCosts"
                label="Purchase costs"
                prefix="£"
                hint="Stamp duty, legal and survey fees"
              />
            </>
          )}
          {landOrProperty === 'Land' && (
            <NumberInput
              control={control}
              name="landTotalOtherCosts"
              label="Other land costs"
              prefix="£"
              hint="Optional"
            />
          )}
          {preconstruction && (
            <NumberInput
              control={control}
              name="buildCosts"
              label="Planned build costs"
              prefix="£"
              hint="Optional"
            />
          )}
          <NumberInput
            control={control}
            name="estimatedEndValueOfProperty"
            label="Estimated end value"
            prefix="£"
          />
        </FormSection>
      )}

      {developerExit && (
        <FormSection
          title="Developer Exit Details"
          description="For completed developments whose units are still selling."
        >
          {propertyLocationAndClass}
          <NumberInput control={control} name="refinancedUnits" label="Number of units to refinance" />
          <NumberInput
            control={control}
            name="currentValue"
            label="Current value of the unsold units"
            prefix="£"
          />
          <NumberInput
            control={control}
            name="estimatedEndValueOfProperty"
            label="Estimated gross development value"
            prefix="£"
          />
        </FormSection>
      )}

      {refurbishment && (
        <FormSection title="Refurbishment Details">
          <ChoiceInput
            control={control}
            name="refurbishmentLevel"
            label="Level of refurbishment"
            options={refurbishmentOptions}
          />
          <NumberInput
            control={control}
            name="estimatedSpending"
            label="Estimated refurbishment spend"
            prefix="£"
          />
        </FormSection>
      )}

      <LoanRequirementsSection control={shared} maxLoanRequired={maxLoanRequired}>
        <NumberInput control={control} name="loanTerm" label="Loan term (months)" required />
      </LoanRequirementsSection>

      <ProjectReadinessSection control={shared} />
    </SearchFormFrame>
  );
}
