import { describe, expect, it } from 'vitest';
import { PIPELINE_STAGES } from '../../contract';
import { JOB_STAGES, STAGES } from './stages';

describe('STAGES', () => {
  it('is the contract’s list of stages, in its order, as the App Workflow screen shows it', () => {
    expect(STAGES.map((stage) => [stage.id, stage.title, stage.runs])).toEqual(PIPELINE_STAGES.map((stage) => [stage.id, stage.title, stage.runs]));
  });

  it('gives every stage the job runs its work, and none of the stages that run at intake', () => {
    for (const stage of STAGES) expect(typeof stage.run, stage.id).toBe(stage.runs === 'job' ? 'function' : 'undefined');
  });

  it('runs the job’s stages as a document is finished: scan, type, name, store, record, then tell the screens', () => {
    expect(JOB_STAGES.map((stage) => stage.id)).toEqual(['scan', 'doc-type', 'rename', 'store', 'record', 'notify']);
  });
});
