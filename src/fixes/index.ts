export { FixService } from './fix.service.js';
