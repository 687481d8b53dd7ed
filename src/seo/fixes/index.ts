/**
 * Fix suggestions: a deterministic rule per check code, and the bounded page digest the rules (and the LLM prompt) use.
 */
export { FIX_RULES, boundProposal, fixReadsTitleTwins, suggestFix } from './fix-rules.js';
export { extractFixContext } from './fix-context.js';
export {
  FIX_LIMITS,
  type FixHeading,
  type FixImage,
  type FixInput,
  type FixLink,
  type FixPageContext,
  type FixProposal,
} from './fix.types.js';
export {
  fitDescription,
  metaDescriptionTag,
  proposeDescription,
  type DescriptionMode,
  type DescriptionProposal,
} from './description-proposal.js';
export { proposeTitle, titleTag, type TitleMode, type TitleProposal } from './title-proposal.js';
export { assignTwinTitles, twinTitleCandidateList, type TitleTwin } from './twin-titles.js';
export { altFromFileName } from './image-alt-proposal.js';
export { correctLanguageTag, guessLanguage, languageOfText, type LanguageGuess } from './language-guess.js';
export { escapeHtml } from './markup-text.js';
