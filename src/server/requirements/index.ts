export { REQUIREMENT_DAY_QUEUE, createRequirementDayHandler, startRequirementDay } from './requirement-day';
export { advanceRequirementDay, readRequirementDay } from './requirement-day.repository';
export {
  addDays,
  addMonths,
  judgeRegistration,
  judgeType,
  judgingDay,
  utcDay,
  type RegistrationJudgement,
  type RuleDocument,
  type RuleRegistration,
  type TypeJudgement,
} from './rule-engine';
