import { Link } from 'react-router';
import { isHttpError } from '../../../lib/http-error';
import { getButtonClasses } from '../../../ui/button';
import { FormMessage } from '../../../ui/field';
import { isPlanLimitError } from '../voice-rules';

/** The server's refusal of a voice form; a plan limit adds the way to the plans. */
export function VoiceFormError({ error }: { error: Error }) {
  const code = isHttpError(error) ? error.errorType : undefined;
  return (
    <div className="flex flex-col items-start gap-2">
      <FormMessage>{error.message}</FormMessage>
      {isPlanLimitError(code) && (
        <Link to="/app/subscription" className={getButtonClasses('secondary', 'sm')}>
          See plans
        </Link>
      )}
    </div>
  );
}
