export { processesUsingFolder } from './in-use';
export { otherSessions } from './key-rotation.repository';
export {
  rewrapEverything,
  rotateMasterKey,
  RotationRefusedError,
  ROTATION_STAGES,
  STAGE_NAMES,
  type KeyPlace,
  type RotationCounts,
  type RotationProgress,
  type RotationResult,
  type RotationStage,
} from './key-rotation.service';
