export {
  REFUSE_SIDE_EFFECTS,
  SIDE_EFFECT_CHOICES,
  allowsLiveSideEffects,
  choiceFor,
  formatSideEffectPolicy,
  parseSideEffectOption,
  resolveSideEffectPolicy,
  type SideEffectChoice,
  type SideEffectOption,
  type SideEffectPolicy,
} from './side-effect-policy.js';
