import { TextField } from '../../../ui/field';

export interface ApiKeyFieldsProps {
  name: string;
  limit: string;
  onName: (value: string) => void;
  onLimit: (value: string) => void;
  autoFocus?: boolean;
}

/** The fields of the create and edit forms: the key's name and its credit limit. */
export function ApiKeyFields({ name, limit, onName, onLimit, autoFocus = false }: ApiKeyFieldsProps) {
  return (
    <>
      <TextField
        label="Name"
        name="key-name"
        autoFocus={autoFocus}
        required
        maxLength={100}
        value={name}
        onChange={(event) => onName(event.target.value)}
      />
      <TextField
        label="Credit limit (optional)"
        name="character-limit"
        inputMode="numeric"
        description="Credits this key may spend; empty means the workspace's own limit."
        value={limit}
        onChange={(event) => onLimit(event.target.value)}
      />
    </>
  );
}
