import { zodResolver } from '@hookform/resolvers/zod';
import {
  CONTACT_PREFERENCES,
  LEAD_MESSAGES,
  PROPERTIES_OWNED_LEAD,
  PROPERTIES_OWNED_LEAD_LABELS,
  leadFormSchema,
  type LeadForm,
  type LeadFormInput,
} from '@lsp/contracts';
import { Button, Checkbox, Dialog, RadioCards, TextField, Fact } from '@lsp/ui';
import { Controller, useForm } from 'react-hook-form';

export interface ReadinessAnswers {
  hasViewedProperty?: boolean;
  ownsProperty?: boolean;
  agreedPurchasePrice?: boolean;
}

interface LeadCaptureModalProps {
  open: boolean;
  onClose: () => void;
  onSubmit: (lead: LeadForm) => void;
  /** The search form's readiness answers; the read-only section shows only when they are given. */
  readiness?: ReadinessAnswers | null;
}

const blank: LeadFormInput = {
  name: '',
  email: '',
  phone: '',
  propertiesOwned: '' as LeadFormInput['propertiesOwned'],
  contactPreference: 'Email',
  consent: false as unknown as true,
};

function yesNo(value: boolean | undefined): string {
  return value ? 'Yes' : 'No';
}

/**
 * 'Get Your Loan Results': every field is checked on each change, shows a green tick when valid or its
 * error, and the submit button stays disabled until name, email, properties owned and consent are valid.
 */
export function LeadCaptureModal({ open, onClose, onSubmit, readiness }: LeadCaptureModalProps) {
  const { register, control, handleSubmit, formState, reset, watch } = useForm<
    LeadFormInput,
    unknown,
    LeadForm
  >({
    resolver: zodResolver(leadFormSchema),
    mode: 'onChange',
    defaultValues: blank,
  });
  const { errors, dirtyFields, isValid } = formState;
  const tick = (name: keyof LeadFormInput) => Boolean(dirtyFields[name]) && !errors[name];
  // A choice with a valid default (contact preference starts at Email) is valid before it is touched.
  const chosen = (name: 'propertiesOwned' | 'contactPreference') => !errors[name] && Boolean(watch(name));
  // The properties question is answered with a click, so no change ever checks it while it is left
  // unanswered: once the person has started on the other fields, it says why the submit stays disabled.
  const startedOtherFields = Boolean(dirtyFields.name || dirtyFields.email || dirtyFields.consent);
  const propertiesOwnedError =
    errors.propertiesOwned?.message ??
    (startedOtherFields && !watch('propertiesOwned') ? LEAD_MESSAGES.propertiesOwned : undefined);

  const close = () => {
    reset(blank);
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      dismissLabel="Cancel"
      title="Get Your Loan Results"
      description="Personalised lender results in under 30 seconds. Join 1,500+ property investors across the UK; it takes less than 30 seconds to complete."
      size="lg"
      className="sr-lead-modal"
      footer={
        <Button type="submit" form="lead-capture-form" variant="brand" disabled={!isValid}>
          Show Me the Best Offers
        </Button>
      }
    >
      <form
        id="lead-capture-form"
        noValidate
        onSubmit={handleSubmit((values) => {
          onSubmit(values);
          reset(blank);
        })}
        className="ui-stack"
      >
        <fieldset className="sr-form-section">
          <legend className="sr-form-section__title">Your Details</legend>
          <div className="sr-form-grid">
            <TextField
              label="Full name"
              required
              autoComplete="name"
              {...register('name')}
              error={errors.name?.message}
              valid={tick('name')}
            />
            <TextField
              label="Email address"
              required
              type="email"
              autoComplete="email"
              {...register('email')}
              error={errors.email?.message}
              valid={tick('email')}
            />
            <TextField
              label="Phone number"
              type="tel"
              autoComplete="tel"
              placeholder="07123 456789"
              hint="Optional"
              {...register('phone')}
              error={errors.phone?.message}
              valid={tick('phone') && Boolean(dirtyFields.phone)}
            />
          </div>
        </fieldset>

        <Controller
          control={control}
          name="propertiesOwned"
          render={({ field }) => (
            <RadioCards
              name={field.name}
              legend={
                <>
                  Investment Info: how many properties do you own?
                  <span className="ui-required" aria-hidden="true">
                    *
                  </span>
                </>
              }
              compact
              options={PROPERTIES_OWNED_LEAD.map((value) => ({
                value,
                title: PROPERTIES_OWNED_LEAD_LABELS[value],
              }))}
              value={field.value || null}
              onChange={field.onChange}
              error={propertiesOwnedError}
              valid={chosen('propertiesOwned')}
            />
          )}
        />

        <fieldset className="sr-form-section">
          <legend className="sr-form-section__title">Contact Preferences</legend>
          <Controller
            control={control}
            name="contactPreference"
            render={({ field }) => (
              <RadioCards
                name={field.name}
                legend="How should we contact you?"
                compact
                options={CONTACT_PREFERENCES.map((value) => ({ value, title: value }))}
                value={field.value ?? 'Email'}
                onChange={field.onChange}
                valid={chosen('contactPreference')}
              />
            )}
          />
          <Checkbox
            label="I agree to be contacted with results and offers. *"
            {...register('consent')}
            error={errors.consent?.message}
            valid={tick('consent')}
          />
        </fieldset>

        {readiness && (
          <section className="sr-readiness" aria-labelledby="lead-readiness-title">
            <h3 id="lead-readiness-title" className="sr-form-section__title">
              Project Readiness
            </h3>
            <dl className="sr-readiness__list">
              <Fact label="Viewed the property" value={yesNo(readiness.hasViewedProperty)} />
              <Fact label="Own the property" value={yesNo(readiness.ownsProperty)} />
              <Fact label="Agreed a purchase price" value={yesNo(readiness.agreedPurchasePrice)} />
            </dl>
          </section>
        )}
      </form>
    </Dialog>
  );
}
