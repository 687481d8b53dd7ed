export { FixService } from './fix.service.js';
export { FixResolver } from './fix.resolver.js';
export { FixSuggestionType, SuggestFixInput, FixSourceEnum } from './fix.types.js';
