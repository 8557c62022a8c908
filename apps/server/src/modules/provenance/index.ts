/** The provenance module's front door: what other modules may use (issue 26 item 7). */

export type {
  GeneratedAudioTrace,
  GeneratedMatch,
  GeneratedOrigin,
  ProvenanceDeps,
} from './provenance.service';
export {
  findGeneratedMatch,
  isSubjectRemembered,
  rememberGeneratedAudio,
  traceGeneratedAudio,
} from './provenance.service';
export type { GeneratedAudioSource } from './provenance.tables';
