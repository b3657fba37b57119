/** A labelled number input of the house style, its value kept as typed (empty: the default applies). */
export function NumberField(props: {
  label: string;
  class: string;
  value: string;
  onInput: (value: string) => void;
  placeholder: string;
  max?: string;
}) {
  return (
    <label class="ui-field">
      {props.label}
      <input
        class={`ui-input ${props.class}`}
        type="number"
        min="1"
        max={props.max}
        placeholder={props.placeholder}
        value={props.value}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </label>
  );
}
