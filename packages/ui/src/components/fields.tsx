// Form fields. Every input has a visible label tied to it, its hint and error are announced through
// aria-describedby, and an invalid field says so with aria-invalid. A field shows a green tick when
// the form marks it valid (the lead form's live validation).
import { useEffect, useId, useState } from 'react';
import type {
  InputHTMLAttributes,
  ReactNode,
  Ref,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from 'react';
import { cx } from './class-names';
import { AlertIcon, CheckIcon, EyeIcon, EyeOffIcon } from './icons';
import { formatUkNumber, parseNumberFieldValue, sanitiseNumberFieldText } from './number-format';

/** The error line under a field. Rendered only when there is a message. */
export function FieldError({ id, children }: { id?: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className="ui-field-error" role="alert">
      <AlertIcon width={16} height={16} style={{ flexShrink: 0, marginTop: 2 }} />
      <span>{children}</span>
    </p>
  );
}

/** The green tick of a valid field; screen readers hear "valid". */
export function ValidTick() {
  return (
    <span className="ui-valid-tick">
      <CheckIcon width={18} height={18} />
      <span className="ui-visually-hidden">valid</span>
    </span>
  );
}

/** What every labelled field takes besides its control's own attributes. */
interface FieldChromeProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** Shows the green tick (only when there is no error). */
  valid?: boolean;
  hideLabel?: boolean;
  fieldClassName?: string;
}

/** The attributes that tie a control to the label, hint and error of its frame. */
interface ControlLink {
  id: string;
  required?: boolean;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** The part of a field's props its frame takes. */
interface FramePart extends FieldChromeProps {
  id?: string;
  required?: boolean;
}

/** Splits a field's props into what its frame takes and what goes on to the control. */
function splitFieldProps<P extends FramePart>({
  id,
  label,
  required,
  hint,
  error,
  valid,
  hideLabel,
  fieldClassName,
  ...control
}: P): [FramePart, Omit<P, keyof FramePart>] {
  return [{ id, label, required, hint, error, valid, hideLabel, fieldClassName }, control];
}

interface FieldFrameProps {
  frame: FramePart;
  /** Ids the caller adds to the control's description (only TextField passes its own on). */
  extraDescribedBy?: string;
  children: (control: ControlLink, showTick: boolean) => ReactNode;
}

/**
 * The label row, hint and error around one control. It owns the control's id (the caller's or a
 * generated one) and hands the control the attributes that link it to them.
 */
function FieldFrame({ frame, extraDescribedBy, children }: FieldFrameProps) {
  const { id, label, required, hint, error, valid, hideLabel, fieldClassName } = frame;
  const autoId = useId();
  const controlId = id ?? autoId;
  const control: ControlLink = {
    id: controlId,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(controlId, hint, error, extraDescribedBy),
  };
  return (
    <div className={cx('ui-field', fieldClassName)}>
      {/* The asterisk sits outside the label so the field's accessible name is the label alone. */}
      <span className={hideLabel ? 'ui-visually-hidden' : 'ui-label-row'}>
        <label htmlFor={controlId} className="ui-label">
          {label}
        </label>
        {required && (
          <span className="ui-required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      {hint && (
        <p id={`${controlId}-hint`} className="ui-hint">
          {hint}
        </p>
      )}
      {children(control, Boolean(valid && !error))}
      <FieldError id={`${controlId}-error`}>{error}</FieldError>
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown, extra?: string) {
  return (
    [hint ? `${id}-hint` : '', error ? `${id}-error` : '', extra ?? ''].filter(Boolean).join(' ') || undefined
  );
}

export interface TextFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'>, FieldChromeProps {
  /** Text shown inside the start of the input, e.g. '£'. */
  prefix?: string;
  ref?: Ref<HTMLInputElement>;
}

export function TextField(props: TextFieldProps) {
  const [frame, { prefix, className, ...input }] = splitFieldProps(props);
  return (
    <FieldFrame frame={frame} extraDescribedBy={input['aria-describedby']}>
      {(control, showTick) => (
        <div className="ui-input-wrap">
          {prefix && (
            <span className="ui-input-prefix" aria-hidden="true">
              {prefix}
            </span>
          )}
          <input
            {...input}
            {...control}
            className={cx(
              'ui-input',
              prefix && 'ui-input--with-prefix',
              showTick && 'ui-input--valid ui-input--with-suffix',
              className,
            )}
          />
          {showTick && (
            <span className="ui-input-suffix">
              <ValidTick />
            </span>
          )}
        </div>
      )}
    </FieldFrame>
  );
}

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement>, FieldChromeProps {
  ref?: Ref<HTMLTextAreaElement>;
}

/** Several lines of free text (a note, a message), framed like every other field. */
export function TextAreaField(props: TextAreaFieldProps) {
  const [frame, { className, ...textarea }] = splitFieldProps(props);
  return (
    <FieldFrame frame={frame}>
      {(control) => <textarea {...textarea} {...control} className={cx('ui-input', className)} />}
    </FieldFrame>
  );
}

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'prefix'>;

/** A password input with a Show/Hide toggle that says which state it is in. */
export function PasswordField(props: PasswordFieldProps) {
  const [frame, { className, ...input }] = splitFieldProps(props);
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame frame={frame}>
      {(control, showTick) => (
        <div className="ui-input-wrap">
          <input
            {...input}
            {...control}
            type={visible ? 'text' : 'password'}
            className={cx('ui-input', showTick && 'ui-input--valid', className)}
            style={{ paddingRight: '5.5rem' }}
          />
          <span className="ui-input-suffix">
            {showTick && <ValidTick />}
            <button
              type="button"
              className="ui-input-addon-button"
              onClick={() => setVisible((v) => !v)}
              aria-pressed={visible}
              aria-controls={control.id}
            >
              {visible ? <EyeOffIcon width={16} height={16} /> : <EyeIcon width={16} height={16} />}
              <span className="ui-visually-hidden">{visible ? 'Hide password' : 'Show password'}</span>
            </button>
          </span>
        </div>
      )}
    </FieldFrame>
  );
}

export interface NumberFieldProps
  extends
    Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'onChange' | 'type' | 'prefix'>,
    FieldChromeProps {
  value: number | null | undefined;
  onValueChange: (value: number | null) => void;
  /** Keep decimals (professional fees); money fields otherwise take whole pounds, pence rounded. */
  allowDecimal?: boolean;
  /** '£' for money fields. */
  prefix?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A number typed the UK way: only digits, commas and one decimal point are kept (a pasted £ or space
 * is dropped); a whole-pound field rounds any pence to the pound; after leaving the field the value
 * shows with thousands separators (250,000).
 */
export function NumberField({
  value,
  onValueChange,
  allowDecimal = false,
  onFocus,
  onBlur,
  ...field
}: NumberFieldProps) {
  const [focused, setFocused] = useState(false);
  const [text, setText] = useState(() => formatUkNumber(value, allowDecimal));

  // A value set from outside (form reset, a reloaded search) shows formatted unless the user is typing.
  useEffect(() => {
    if (!focused) setText(formatUkNumber(value, allowDecimal));
  }, [value, focused, allowDecimal]);

  return (
    <TextField
      {...field}
      // The input describes itself by its own hint and error only, as it always has.
      aria-describedby={undefined}
      type="text"
      inputMode={allowDecimal ? 'decimal' : 'numeric'}
      autoComplete="off"
      value={text}
      onFocus={(event) => {
        setFocused(true);
        onFocus?.(event);
      }}
      onChange={(event) => {
        const clean = sanitiseNumberFieldText(event.target.value);
        setText(clean);
        onValueChange(parseNumberFieldValue(clean, allowDecimal));
      }}
      onBlur={(event) => {
        setFocused(false);
        setText(formatUkNumber(parseNumberFieldValue(text, allowDecimal), allowDecimal));
        onBlur?.(event);
      }}
    />
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement>, FieldChromeProps {
  options: readonly SelectOption[];
  /** A first, empty choice such as 'Select...'. */
  placeholder?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A native select: the most robust choice on phones and with assistive technology. */
export function Select(props: SelectProps) {
  const [frame, { options, placeholder, className, ...select }] = splitFieldProps(props);
  return (
    <FieldFrame frame={frame}>
      {(control, showTick) => (
        <div className="ui-input-wrap">
          <select
            {...select}
            {...control}
            className={cx('ui-select', showTick && 'ui-input--valid', className)}
          >
            {placeholder !== undefined && <option value="">{placeholder}</option>}
            {options.map((option) => (
              <option key={option.value} value={option.value} disabled={option.disabled}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      )}
    </FieldFrame>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: ReactNode;
  valid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, error, valid, id, className, ...input }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={cx('ui-field', className)}>
      <label className="ui-checkbox" htmlFor={inputId}>
        <input
          {...input}
          id={inputId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
        />
        <span>{label}</span>
        {valid && !error && <ValidTick />}
      </label>
      <FieldError id={`${inputId}-error`}>{error}</FieldError>
    </div>
  );
}

export interface RadioCardOption<V extends string> {
  value: V;
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
}

export interface RadioCardsProps<V extends string> {
  name: string;
  legend: ReactNode;
  hideLegend?: boolean;
  options: readonly RadioCardOption<V>[];
  /** null means nothing chosen yet (the loan-type selector starts that way). */
  value: V | null | undefined;
  onChange: (value: V) => void;
  error?: ReactNode;
  /** A green tick beside the legend once the choice is valid (the lead form's live validation). */
  valid?: boolean;
  compact?: boolean;
  className?: string;
}

/** A group of large choice cards backed by real radio buttons (arrow keys move between them). */
export function RadioCards<V extends string>({
  name,
  legend,
  hideLegend,
  options,
  value,
  onChange,
  error,
  valid,
  compact,
  className,
}: RadioCardsProps<V>) {
  const id = useId();
  return (
    <fieldset className={cx('ui-fieldset', className)} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={hideLegend ? 'ui-visually-hidden' : 'ui-legend'}>
        {legend}
        {valid && !error && (
          <>
            {' '}
            <ValidTick />
          </>
        )}
      </legend>
      <div className={cx('ui-radio-cards', compact && 'ui-radio-cards--compact')}>
        {options.map((option) => (
          <label key={option.value} className="ui-radio-card">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              disabled={option.disabled}
              onChange={() => onChange(option.value)}
            />
            {option.icon && (
              <span className="ui-radio-card__icon" aria-hidden="true">
                {option.icon}
              </span>
            )}
            <span className="ui-radio-card__title">{option.title}</span>
            {option.description && <span className="ui-radio-card__description">{option.description}</span>}
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </fieldset>
  );
}
