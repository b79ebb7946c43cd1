import { TextField } from '@lsp/ui';
import type { ReactNode } from 'react';
import type { Control, UseFormRegisterReturn } from 'react-hook-form';
import { FormSection, NumberInput, SelectInput, YesNoInput } from './form-fields';
import { regionOptions } from './options';
import type { SharedSearchFields } from './use-search-form';

/** The question every search form opens with; the name the search is saved and listed under. */
export function ProjectNameField({ field, error }: { field: UseFormRegisterReturn; error?: string }) {
  return <TextField label="Project name" required {...field} error={error} autoComplete="off" />;
}

/** The region of the property, asked by every loan type. */
export function PropertyLocationInput({
  control,
  placeholder,
}: {
  control: Control<SharedSearchFields>;
  placeholder?: string;
}) {
  return (
    <SelectInput
      control={control}
      name="propertyLocation"
      label="Property location"
      required
      options={regionOptions}
      placeholder={placeholder}
    />
  );
}

/** Loan Requirements: the loan type's own term questions first, then the max-loan question every type asks. */
export function LoanRequirementsSection({
  control,
  maxLoanRequired,
  children,
}: {
  control: Control<SharedSearchFields>;
  maxLoanRequired: boolean | undefined;
  children: ReactNode;
}) {
  return (
    <FormSection title="Loan Requirements">
      {children}
      <YesNoInput control={control} name="maxLoanRequired" label="Do you want the maximum loan available?" />
      {!maxLoanRequired && (
        <NumberInput control={control} name="netLoanRequired" label="Net loan required" prefix="£" required />
      )}
    </FormSection>
  );
}

/** The readiness questions every search form ends with; they feed the Lendability Score. */
export function ProjectReadinessSection({ control }: { control: Control<SharedSearchFields> }) {
  return (
    <FormSection title="Project Readiness">
      <YesNoInput control={control} name="hasViewedProperty" label="Have you viewed the property?" />
      <YesNoInput control={control} name="ownsProperty" label="Do you already own the property?" />
      <YesNoInput control={control} name="agreedPurchasePrice" label="Have you agreed a purchase price?" />
    </FormSection>
  );
}
