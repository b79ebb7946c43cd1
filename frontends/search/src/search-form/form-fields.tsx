// react-hook-form bindings for the design system's fields, so every form reads the same way:
// a label, the value, and the error zod reported for that path.
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { NumberField, RadioCards, Select, type SelectOption } from '@lsp/ui';
import type { ReactNode } from 'react';

interface BaseProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  required?: boolean;
  hint?: ReactNode;
}

function errorText(error: { message?: unknown } | undefined): string | undefined {
  return typeof error?.message === 'string' ? error.message : undefined;
}

/** A money or count field: UK separators after leaving it, optional £ prefix. */
export function NumberInput<T extends FieldValues>({
  control,
  name,
  label,
  required,
  hint,
  prefix,
  suffixHint,
  allowDecimal,
}: BaseProps<T> & { prefix?: string; suffixHint?: string; allowDecimal?: boolean }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <NumberField
          label={label}
          required={required}
          hint={hint ?? suffixHint}
          prefix={prefix}
          allowDecimal={allowDecimal}
          name={field.name}
          ref={field.ref}
          value={typeof field.value === 'number' ? field.value : null}
          onValueChange={(value) => field.onChange(value ?? undefined)}
          onBlur={field.onBlur}
          error={errorText(fieldState.error)}
        />
      )}
    />
  );
}

export function SelectInput<T extends FieldValues>({
  control,
  name,
  label,
  required,
  hint,
  options,
  placeholder,
}: BaseProps<T> & { options: readonly SelectOption[]; placeholder?: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Select
          label={label}
          required={required}
          hint={hint}
          options={options}
          placeholder={placeholder}
          name={field.name}
          ref={field.ref}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={(event) => field.onChange(event.target.value === '' ? undefined : event.target.value)}
          onBlur={field.onBlur}
          error={errorText(fieldState.error)}
        />
      )}
    />
  );
}

interface RadioInputProps {
  options: ReadonlyArray<{ value: string; title: string; description?: string }>;
  className?: string;
  toChoice: (value: unknown) => string | null;
  fromChoice: (choice: string) => unknown;
}

/**
 * A question answered with compact radio cards. The form value and the card chosen can differ (a
 * Yes/No card holds a boolean), so the caller says how to read one from the other.
 */
function RadioInput<T extends FieldValues>({
  control,
  name,
  label,
  options,
  className,
  toChoice,
  fromChoice,
}: BaseProps<T> & RadioInputProps) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <RadioCards
          name={field.name}
          legend={label}
          compact
          className={className}
          options={options}
          value={toChoice(field.value)}
          onChange={(choice) => field.onChange(fromChoice(choice))}
          error={errorText(fieldState.error)}
        />
      )}
    />
  );
}

const YES_NO_OPTIONS = [
  { value: 'yes', title: 'Yes' },
  { value: 'no', title: 'No' },
];

/** A Yes/No question backed by two radio cards; the form value is a boolean. */
export function YesNoInput<T extends FieldValues>({ control, name, label }: BaseProps<T>) {
  return (
    <RadioInput
      control={control}
      name={name}
      label={label}
      className="sr-yes-no"
      options={YES_NO_OPTIONS}
      toChoice={(value) => (value === true ? 'yes' : value === false ? 'no' : null)}
      fromChoice={(choice) => choice === 'yes'}
    />
  );
}

/** A choice between a few named options shown as compact radio cards. */
export function ChoiceInput<T extends FieldValues>({
  control,
  name,
  label,
  options,
}: BaseProps<T> & { options: ReadonlyArray<{ value: string; label: string; description?: string }> }) {
  return (
    <RadioInput
      control={control}
      name={name}
      label={label}
      options={options.map((option) => ({
        value: option.value,
        title: option.label,
        description: option.description,
      }))}
      toChoice={(value) => (typeof value === 'string' ? value : null)}
      fromChoice={(choice) => choice}
    />
  );
}

/** One titled block of a search form. */
export function FormSection({
  title,
  children,
  description,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="sr-form-section">
      <legend className="sr-form-section__title">{title}</legend>
      {description && <p className="ui-muted sr-form-section__description">{description}</p>}
      <div className="sr-form-grid">{children}</div>
    </fieldset>
  );
}
