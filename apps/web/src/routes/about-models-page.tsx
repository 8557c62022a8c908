import { EXTERNAL_MODEL_ID, findModel, type ModelResponse, TTS_MODELS } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { ModelStoreList } from '../features/system/components/model-store-list';
import { listModelsQueryOptions } from '../features/tts/api/list-models';
import { MODEL_EXPLANATIONS } from '../features/tts/model-explanations';
import { useAuth } from '../lib/auth/auth-provider';
import { Badge } from '../ui/badge';
import { Card } from '../ui/card';

/** What the page shows of a model: the fields the server's list and the contracts' catalogue share. */
type ModelFacts = Pick<
  ModelResponse,
  | 'model_id'
  | 'name'
  | 'description'
  | 'alias_of'
  | 'languages'
  | 'token_cost_factor'
  | 'can_do_text_to_speech'
>;

/**
 * The catalogue every installation ships (contracts), for a visitor: `GET /v1/models` needs a sign-in. The
 * external model is left out: whether this installation connected one only the server says.
 */
const shippedModels: ModelFacts[] = TTS_MODELS.filter(
  (m) => m.model_id !== EXTERNAL_MODEL_ID && m.alias_of !== EXTERNAL_MODEL_ID,
).map((m) => ({ ...m, alias_of: m.alias_of ?? null }));

/** The classic model a public id speaks through where the neural model cannot (decision record 0021). */
const fallbackOf = (modelId: string) => findModel(modelId)?.fallback;

/**
 * `/app/about/models` (issue 18 item 4): what each model is, honestly and in plain words, with the
 * languages it speaks and its licence, and the public model ids as aliases with the
 * model each stands for (issue 26 item 7). Open to visitors (the footer links it from every page): they
 * read the shipped catalogue at once; signed in, the server's list, the external model included when one is
 * connected.
 */
export default function AboutModelsPage() {
  const { status } = useAuth();
  const served = useQuery({ ...listModelsQueryOptions(), enabled: status === 'signedIn' });
  const models: readonly ModelFacts[] = served.data ?? shippedModels;
  const own = models.filter((m) => !m.alias_of);
  const aliases = models.filter((m) => m.alias_of);
  // A model this server does not list (its neural model unavailable) is named from the shipped catalogue.
  const nameOf = (id: string | null) =>
    own.find((m) => m.model_id === id)?.name ?? shippedModels.find((m) => m.model_id === id)?.name ?? id;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">About the models</h1>
        <p className="text-fg-muted">
          Every model here runs on this server, offline, with no data leaving it. The default, Parla Neural
          v1, is a neural network trained on recorded speech: natural voices in the main languages. The
          classic models are lighter and quicker, speak every voice in every language Parla has, and sound
          synthetic. Whoever runs this installation can also connect a speech server of their own, which then
          appears below as an external model.
        </p>
      </header>

      <section aria-labelledby="models-heading" className="flex flex-col gap-4">
        <h2 id="models-heading" className="text-lg font-semibold">
          Models
        </h2>
        {own.map((model) => (
          <ModelCard key={model.model_id} model={model} />
        ))}
      </section>

      <section aria-labelledby="languages-heading" className="flex flex-col gap-2">
        <h2 id="languages-heading" className="text-lg font-semibold">
          Languages
        </h2>
        <p className="text-fg-muted">
          A voice speaks its own language. When your text is in another one, the text-to-speech page offers
          voices of that language, or reads the text with the voice you chose in that language: the voice
          keeps its character and the words get that language’s pronunciation (the API’s{' '}
          <code className="rounded bg-subtle px-1 text-sm">language_code</code> does the same). Japanese is
          read from kana only: kanji are not read.
        </p>
      </section>

      {aliases.length > 0 && (
        <section aria-labelledby="aliases-heading" className="flex flex-col gap-3">
          <h2 id="aliases-heading" className="text-lg font-semibold">
            Public model ids
          </h2>
          <p className="text-fg-muted">
            Programs written for the public speech API send these model ids. Parla accepts each one in place
            of the model it stands for. Those that stand for the neural model speak through it whenever it can
            speak the text with that voice, and through the classic model named next to them otherwise (a
            language or a voice the neural model does not have, or the neural model unavailable on this
            server). The app itself offers only Parla’s models.
          </p>
          <div className="overflow-x-auto rounded-xl border border-line">
            <table className="w-full text-left text-sm">
              <thead className="bg-subtle text-fg-muted">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Model id
                  </th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Stands for
                  </th>
                </tr>
              </thead>
              <tbody>
                {aliases.map((alias) => (
                  <tr key={alias.model_id} className="border-t border-line">
                    <td className="px-4 py-2 font-mono text-xs">
                      <ModelIdText id={alias.model_id} />
                    </td>
                    <td className="px-4 py-2">
                      {nameOf(alias.alias_of)}
                      {fallbackOf(alias.model_id) && (
                        <span className="text-fg-muted">
                          {' '}
                          — otherwise {nameOf(fallbackOf(alias.model_id) as string)}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <section aria-labelledby="model-files-heading" className="flex flex-col gap-3">
        <h2 id="model-files-heading" className="text-lg font-semibold">
          Model files and their licences
        </h2>
        <p className="text-fg-muted">
          The trained models behind the speech and the speech recognition, each taken from a package on a
          public registry and checked byte for byte before it is used. A model this server could not fetch, or
          whose files are damaged, is listed as unavailable with the reason; everything else works without it.
          Their licence texts are in the{' '}
          {/* Straight to the model files: they come after some 250 npm packages in the notices. */}
          <a href="/licenses#models" className="font-medium text-fg underline-offset-2 hover:underline">
            third-party notices’ model files
          </a>
          .
        </p>
        <ModelStoreList />
      </section>

      <p className="text-sm text-fg-muted">
        The speech software Parla is built on, with its licences and attributions, is listed in the{' '}
        <a href="/licenses" className="font-medium text-fg underline-offset-2 hover:underline">
          third-party notices
        </a>
        .{' '}
        {status === 'signedIn' ? (
          <>
            Back to{' '}
            <Link
              to="/app/speech-synthesis/text-to-speech"
              className="font-medium text-fg underline-offset-2 hover:underline"
            >
              text to speech
            </Link>
            .
          </>
        ) : (
          <>
            <Link to="/app/sign-up" className="font-medium text-fg underline-offset-2 hover:underline">
              Sign up
            </Link>{' '}
            to try them.
          </>
        )}
      </p>
    </div>
  );
}

/**
 * A model id that a narrow column wraps after an underscore ("eleven_multilingual_" / "sts_v2"), never
 * inside a word as `break-all` did on a phone ("eleven_multil" / "ingual_v2"), nor inside a version
 * ("v2_5"); copied, it is the id as is.
 */
function ModelIdText({ id }: { id: string }) {
  const parts = id.split('_');
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed id, in order
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 &&
            // A version stays whole: "v2_5", not "v2_" / "5".
            (/^\d+$/.test(parts[index + 1] ?? '') ? (
              '_'
            ) : (
              <>
                _<wbr />
              </>
            ))}
        </Fragment>
      ))}
    </>
  );
}

function ModelCard({ model }: { model: ModelFacts }) {
  const about = MODEL_EXPLANATIONS[model.model_id];
  const languages = model.languages ?? [];
  return (
    <Card className="flex flex-col gap-3 p-5" aria-labelledby={`model-${model.model_id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`model-${model.model_id}`} className="text-base font-semibold">
          {model.name}
        </h3>
        <span className="font-mono text-xs text-fg-muted">
          <ModelIdText id={model.model_id} />
        </span>
      </div>
      {about && <Badge className="self-start">{about.kind}</Badge>}
      <p className="text-sm">{about?.summary ?? model.description}</p>
      {about && <p className="text-sm text-fg-muted">Licence: {about.licence}</p>}
      <p className="text-sm text-fg-muted">
        {model.can_do_text_to_speech
          ? `${model.token_cost_factor} ${model.token_cost_factor === 1 ? 'credit' : 'credits'} per character.`
          : 'Speech to speech: credits by the length of the audio.'}
      </p>
      {model.can_do_text_to_speech && (
        <div className="flex flex-col gap-1.5">
          <h4 className="text-sm font-medium">
            {languages.length === 1 ? 'Speaks 1 language' : `Speaks ${languages.length} languages`}
          </h4>
          <ul className="flex flex-wrap gap-1" aria-label={`Languages of ${model.name}`}>
            {languages.map((language) => (
              <li key={language.language_id}>
                <Badge>{language.name}</Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
