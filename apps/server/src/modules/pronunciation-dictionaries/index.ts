/**
 * The pronunciation dictionaries' front door (issue 30): what every speaking capability calls to turn a
 * request's `pronunciation_dictionary_locators` (or, naming none, the workspace's default list) into the
 * rules it puts on its `SpeechRequest.pronunciation` — text to speech and its sockets, dialogue, and later
 * Studio and Audio Native. Call it before anything is charged: an unknown locator is a 404.
 */
export { dictionaryDepsOf } from './pronunciation-dictionaries.routes';
export {
  type DictionaryDeps,
  pronunciationRulesFor,
  type ResolvedDictionaryVersion,
  resolvePronunciationDictionaries,
} from './pronunciation-dictionaries.service';
