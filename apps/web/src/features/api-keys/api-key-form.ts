/** The checked fields of a key form, as the create and edit calls take them. */
export interface ApiKeyForm {
  name: string;
  character_limit: number | null;
}

/** "" → null (no limit of its own); otherwise a whole number of credits. */
export function parseLimit(text: string): number | null | 'invalid' {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 1_000_000_000 ? value : 'invalid';
}

/** A key's credit limit as the form's field shows it: empty when the key has none of its own. */
export function limitText(characterLimit: number | null): string {
  return characterLimit === null ? '' : String(characterLimit);
}

/** The name and credit limit of a key form, checked; a string is the error to show. */
export function readApiKeyForm(name: string, limit: string): ApiKeyForm | string {
  const characterLimit = parseLimit(limit);
  if (!name.trim()) return 'Give the key a name.';
  if (characterLimit === 'invalid') return 'The credit limit is a whole number from 1 up, or empty.';
  return { name: name.trim(), character_limit: characterLimit };
}
