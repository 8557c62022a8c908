/**
 * The studio module's front door (issue 30). Audio Native builds on Studio projects: it creates one from
 * an article, replaces its content, starts its conversion and reads its snapshots' audio through these.
 */
export { type StudioDeps, studioDepsOf } from './studio.deps';
export { projectFolder as studioProjectFolder } from './studio.rules';
export {
  createProject as createStudioProject,
  deleteStudioProject,
  getStudioProject,
  type StudioDocument,
  startConversion as startStudioConversion,
  updateStudioContent,
  updateStudioProject,
} from './studio.service';
export {
  joinMp3Parts as joinStudioMp3,
  type StudioSnapshotAudio,
  studioSnapshotAudio,
} from './studio.snapshots';
