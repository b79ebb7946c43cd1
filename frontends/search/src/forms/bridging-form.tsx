import { zodResolver } from '@hookform/resolvers/zod';
import { bridgingFormDefaults, bridgingSearchSchema, type BridgingSearch, type BridgingSearchInput } from '@lsp/contracts';
import { RadioCards, TextField } from '@lsp/ui';
import { useEffect } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { ChoiceInput, FormSection, NumberInput, SelectInput, YesNoInput } from '../components/form-fields';
import { bridgingTypeOptions, landOrPropertyOptions, ownOrPurchaseOptions, planningOptions, propertyClassOptions, refurbishmentOptions, regionOptions } from './options';
import { mergeInitial, SearchFormFrame, type SearchFormProps } from './search-form-frame';

const defaults = { ...bridgingFormDefaults } as unknown as BridgingSearchInput;

export function BridgingForm({ initialValues, onSearch, busy, renderRecent }: SearchFormProps) {
  const form = useForm<BridgingSearchInput, unknown, BridgingSearch>({
    resolver: zodResolver(bridgingSearchSchema),
    defaultValues: mergeInitial(defaults as Record<string, unknown>, initialValues) as BridgingSearchInput,
    shouldUnregister: true,
  });
  const { control, register, setValue, formState } = form;
  const [bridgingType, ownOrPurchase, landOrProperty, maxLoanRequired] = useWatch({ control, name: ['bridgingType', 'ownOrPurchase', 'landOrProperty', 'maxLoanRequired'] });

  useEffect(() => {
    if (maxLoanRequired) setValue('netLoanRequired', undefined);
  }, [maxLoanRequired, setValue]);

  const developerExit = bridgingType === 'bridgingDeveloperExit';
  const refurbishment = bridgingType === 'bridgingRefurbishment';
  const preconstruction = bridgingType === 'bridgingPreconstruction';
  const load = (data: Record<string, unknown>) => form.reset(mergeInitial(defaults as Record<string, unknown>, data) as BridgingSearchInput);

  return (
    <SearchFormFrame
      title="Bridging Finance Search"
      description="Short-term finance for buying, refinancing, refurbishing or exiting a development."
      recent={renderRecent(load)}
      busy={busy}
      onSubmit={form.handleSubmit((values) => onSearch(values as unknown as Record<string, unknown>))}
    >
      <div className="sr-form-section">
        <TextField label="Project name" required {...register('projectName')} error={formState.errors.projectName?.message} autoComplete="off" />
        <Controller
          control={control}
          name="bridgingType"
          render={({ field }) => (
            <RadioCards name={field.name} legend="What do you need the bridge for?" options={bridgingTypeOptions} value={field.value ?? null} onChange={field.onChange} className="sr-use-cases" />
          )}
        />
      </div>

      {!developerExit && (
        <FormSection title="Property Details">
          <SelectInput control={control} name="propertyLocation" label="Property location" required options={regionOptions} />
          <SelectInput control={control} name="propertyClass" label="Property class" options={propertyClassOptions} />
          <ChoiceInput control={control} name="landOrProperty" label="Land or property?" options={landOrPropertyOptions} />
          {landOrProperty === 'Land' && <SelectInput control={control} name="planningPermissionType" label="Planning permission" options={planningOptions} />}
          <ChoiceInput control={control} name="ownOrPurchase" label="Do you own it or are you purchasing?" options={ownOrPurchaseOptions} />
          {ownOrPurchase === 'Own' ? (
            <>
              <NumberInput control={control} name="currentValue" label="Current value" prefix="£" />
              <TextField label="Original purchase date" type="date" hint="Optional" {...register('originalPurchaseDate')} />
            </>
          ) : (
            <>
              <NumberInput control={control} name="purchasePrice" label="Purchase price" prefix="£" />
              <NumberInput control={control} name="purchaseCosts" label="Purchase costs" prefix="£" hint="Stamp duty, legal and survey fees" />
            </>
          )}
          {landOrProperty === 'Land' && <NumberInput control={control} name="landTotalOtherCosts" label="Other land costs" prefix="£" hint="Optional" />}
          {preconstruction && <NumberInput control={control} name="buildCosts" label="Planned build costs" prefix="£" hint="Optional" />}
          <NumberInput control={control} name="estimatedEndValueOfProperty" label="Estimated end value" prefix="£" />
        </FormSection>
      )}

      {developerExit && (
        <FormSection title="Developer Exit Details" description="For completed developments whose units are still selling.">
          <SelectInput control={control} name="propertyLocation" label="Property location" required options={regionOptions} />
          <SelectInput control={control} name="propertyClass" label="Property class" options={propertyClassOptions} />
          <NumberInput control={control} name="refinancedUnits" label="Number of units to refinance" />
          <NumberInput control={control} name="currentValue" label="Current value of the unsold units" prefix="£" />
          <NumberInput control={control} name="estimatedEndValueOfProperty" label="Estimated gross development value" prefix="£" />
        </FormSection>
      )}

      {refurbishment && (
        <FormSection title="Refurbishment Details">
          <ChoiceInput control={control} name="refurbishmentLevel" label="Level of refurbishment" options={refurbishmentOptions} />
          <NumberInput control={control} name="estimatedSpending" label="Estimated refurbishment spend" prefix="£" />
        </FormSection>
      )}

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
