import { useEffect, type ReactNode } from 'react';
import {
  useForm,
  useWatch,
  type Control,
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { mergeInitial, type SearchFormProps } from './search-form-frame';

/**
 * The fields every search form has, whatever its loan type: where the property is, the max-loan
 * question and project readiness.
 */
export interface SharedSearchFields {
  propertyLocation?: string;
  maxLoanRequired?: boolean;
  netLoanRequired?: number;
  hasViewedProperty?: boolean;
  ownsProperty?: boolean;
  agreedPurchasePrice?: boolean;
}

export interface SearchForm<Input extends FieldValues, Output> {
  form: UseFormReturn<Input, unknown, Output>;
  /** The same form, seen through the fields all three loan types share (for the shared sections). */
  shared: Control<SharedSearchFields>;
  maxLoanRequired: boolean | undefined;
  /** What SearchFormFrame needs: the recent-searches dropdown, the busy flag and the submit handler. */
  frame: { recent: ReactNode; busy: boolean; onSubmit: () => void };
}

/**
 * A search form's setup: the contracts' schema as resolver, its defaults under the values it starts
 * from, hidden fields unregistered, recent searches loaded over the defaults, and the parsed values
 * handed to onSearch. Answering Yes to the max-loan question clears the net loan it hides.
 */
export function useSearchForm<
  Input extends FieldValues & { [K in keyof SharedSearchFields]?: unknown },
  Output,
>(
  resolver: Resolver<Input, unknown, Output>,
  defaults: Input,
  { initialValues, onSearch, busy, renderRecent }: SearchFormProps,
): SearchForm<Input, Output> {
  const form = useForm<Input, unknown, Output>({
    resolver,
    defaultValues: mergeInitial(defaults as Record<string, unknown>, initialValues) as DefaultValues<Input>,
    shouldUnregister: true,
  });
  // Every search schema has these fields (Input names them); their controls hold these value types.
  const shared = form.control as unknown as Control<SharedSearchFields>;
  const maxLoanRequired = useWatch({ control: shared, name: 'maxLoanRequired' });
  const { setValue } = form as unknown as UseFormReturn<SharedSearchFields>;

  useEffect(() => {
    if (maxLoanRequired) setValue('netLoanRequired', undefined);
  }, [maxLoanRequired, setValue]);

  const load = (data: Record<string, unknown>) =>
    form.reset(mergeInitial(defaults as Record<string, unknown>, data) as Input);

  return {
    form,
    shared,
    maxLoanRequired,
    frame: {
      recent: renderRecent(load),
      busy,
      onSubmit: form.handleSubmit((values) => onSearch(values as unknown as Record<string, unknown>)),
    },
  };
}
